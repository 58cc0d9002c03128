// docs/gateway-protocol.md §11 (a 23 MiB file as base64 fits in one stdio message; a larger
// message fails its own call, not the session).
import { Transform, type TransformCallback } from 'node:stream';

/** How much of an oversized line is kept to find its `method` and `id`. */
const KEPT_BYTES = 512;

/** What is known of a line that was dropped for its size. */
export interface OversizedLine {
  /** Its size in bytes, without the newline. */
  bytes: number;
  /** Its first and last bytes (up to 512 each), as text. */
  head: string;
  tail: string;
}

/**
 * Cuts stdin into lines and passes each on whole, as one chunk, so that the MCP SDK's read buffer
 * never holds more than one message. A line over `limit` bytes is not kept: its bytes are dropped
 * as they come and `onOversized` is told once it ends. (The SDK closes the whole session when its
 * buffer overflows; a message a client could send must fail only its own request.)
 */
export class MessageLines extends Transform {
  readonly #limit: number;
  readonly #onOversized: (line: OversizedLine) => void;
  #parts: Buffer[] = [];
  #size = 0;
  /** While a line over the limit is being dropped: its head, its tail so far. */
  #dropped: { head: Buffer; tail: Buffer } | undefined;

  constructor(limit: number, onOversized: (line: OversizedLine) => void) {
    super();
    this.#limit = limit;
    this.#onOversized = onOversized;
  }

  override _transform(chunk: Buffer, _: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(start, end));
      if (newline === -1) break;
      this.#endLine();
      start = newline + 1;
    }
    done();
  }

  /** Part of the current line: kept while within the limit, else dropped (head and tail kept). */
  #take(part: Buffer): void {
    this.#size += part.length;
    if (this.#dropped === undefined && this.#size <= this.#limit) {
      this.#parts.push(part);
      return;
    }
    if (this.#dropped === undefined) {
      const all = Buffer.concat([...this.#parts, part]);
      this.#parts = [];
      this.#dropped = { head: all.subarray(0, KEPT_BYTES), tail: Buffer.alloc(0) };
      part = all;
    }
    const tail = Buffer.concat([this.#dropped.tail, part.subarray(-KEPT_BYTES)]);
    this.#dropped.tail = Buffer.from(tail.subarray(-KEPT_BYTES));
  }

  #endLine(): void {
    const dropped = this.#dropped;
    if (dropped === undefined) {
      this.#parts.push(Buffer.from('\n'));
      this.push(Buffer.concat(this.#parts));
    } else {
      const text = (bytes: Buffer) => bytes.toString('utf8');
      this.#onOversized({ bytes: this.#size, head: text(dropped.head), tail: text(dropped.tail) });
    }
    this.#parts = [];
    this.#size = 0;
    this.#dropped = undefined;
  }
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `id` and `method` before the first nested value, or `id` as the last top-level member. */
const HEAD_ID = new RegExp(String.raw`^\s*\{[^{[]*?"id"\s*:\s*${ID}`);
const TAIL_ID = new RegExp(String.raw`,\s*"id"\s*:\s*${ID}\s*\}\s*$`);
const HEAD_METHOD = /^\s*\{[^{[]*?"method"\s*:\s*"([^"\\]*)"/;

/** The request an oversized line held, as far as its ends tell: its `id` (JSON) and `method`. */
export function oversizedRequest(line: OversizedLine): {
  id: string | number | undefined;
  method: string | undefined;
} {
  const id = HEAD_ID.exec(line.head)?.[1] ?? TAIL_ID.exec(line.tail)?.[1];
  return {
    id: id === undefined ? undefined : (JSON.parse(id) as string | number),
    method: HEAD_METHOD.exec(line.head)?.[1],
  };
}
