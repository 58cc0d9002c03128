// docs/gateway-protocol.md §11 (a 23 MiB file as base64 fits in one stdio message; a larger
// message fails its own call, not the session).
import { Transform, type TransformCallback } from 'node:stream';
import { type RequestId, RequestIdSchema } from '@modelcontextprotocol/sdk/types.js';

/** How much of an oversized line is kept to find its `method` and `id`. */
const KEPT_BYTES = 512;

/** What is known of a line that was dropped for its size. */
export interface OversizedLine {
  /** Its size in bytes, without the newline (or CRLF). */
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
  /** The current line's last byte so far. */
  #last: number | undefined;

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

  /**
   * Part of the current line: kept while within the limit (plus one byte, a `\r` not counted),
   * else dropped (head and tail kept).
   */
  #take(part: Buffer): void {
    this.#size += part.length;
    if (part.length > 0) this.#last = part[part.length - 1];
    if (this.#dropped === undefined && this.#size <= this.#limit + 1) {
      this.#parts.push(part);
      return;
    }
    if (this.#dropped === undefined) {
      this.#parts.push(part);
      this.#drop();
      return;
    }
    const dropped = this.#dropped;
    const tail = Buffer.concat([dropped.tail, part.subarray(-KEPT_BYTES)]);
    dropped.tail = Buffer.from(tail.subarray(-KEPT_BYTES));
  }

  /** Lets go of the line kept so far, all but its ends. */
  #drop(): void {
    const all = Buffer.concat(this.#parts);
    this.#parts = [];
    this.#dropped = {
      // (Copies: the line itself is let go.)
      head: Buffer.from(all.subarray(0, KEPT_BYTES)),
      tail: Buffer.from(all.subarray(-KEPT_BYTES)),
    };
  }

  #endLine(): void {
    // A CRLF line's `\r` is no part of the message (the SDK strips it too).
    const bytes = this.#last === 13 ? this.#size - 1 : this.#size;
    if (this.#dropped === undefined && bytes <= this.#limit) {
      // (One more byte for the newline; a `\r` there is overwritten.)
      const line = Buffer.concat(this.#parts, bytes + 1);
      line[bytes] = 10;
      this.push(line);
    } else {
      if (this.#dropped === undefined) this.#drop();
      const { head, tail } = this.#dropped as { head: Buffer; tail: Buffer };
      this.#onOversized({ bytes, head: head.toString('utf8'), tail: tail.toString('utf8') });
    }
    this.#parts = [];
    this.#size = 0;
    this.#last = undefined;
    this.#dropped = undefined;
  }
}

/** The request an oversized line held, as far as its ends tell: its `id` (JSON) and `method`. */
export function oversizedRequest(line: OversizedLine): {
  id: RequestId | undefined;
  method: string | undefined;
  /** A `tools/call`'s tool, when its `name` is the first or last member of `params`. */
  tool: string | undefined;
} {
  // Top-level members read forward from the head and backward from the tail, each until a value
  // runs past what was kept (the huge value, the params): a member found both ways is the tail's,
  // as the last of duplicate keys wins in `JSON.parse`.
  const members = { ...headMembers(line.head), ...tailMembers(line.tail) };
  // An id by the SDK's own rule (a string or an integer): one its client could match an answer to.
  const id = RequestIdSchema.safeParse(scalar(members.id));
  const method = scalar(members.method);
  return {
    id: id.success ? id.data : undefined,
    method: typeof method === 'string' ? method : undefined,
    tool: toolNamed(line),
  };
}

/** `params.name` as the first member of `params` (the SDKs' order) or as its last. */
const TOOL_FIRST = /"params"\s*:\s*\{\s*"name"\s*:\s*("(?:[^"\\]|\\.)*")/;
const TOOL_LAST =
  /,\s*"name"\s*:\s*("(?:[^"\\]|\\.)*")\s*\}\s*(?:,\s*"(?:jsonrpc|id|method)"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[\w.+-]+)\s*)*\}\s*$/;

function toolNamed(line: OversizedLine): string | undefined {
  const json = TOOL_FIRST.exec(line.head)?.[1] ?? TOOL_LAST.exec(line.tail)?.[1];
  const name = scalar(json);
  return typeof name === 'string' ? name : undefined;
}

type Members = Record<string, string>;

/** The members of an object, by key, whose values end within `text` (values as JSON text). */
function headMembers(text: string): Members {
  const members: Members = Object.create(null);
  let at = skipSpace(text, 0);
  if (text[at] !== '{') return members;
  for (;;) {
    const keyStart = skipSpace(text, at + 1);
    const keyEnd = stringEnd(text, keyStart);
    if (keyEnd < 0) return members;
    const colon = skipSpace(text, keyEnd);
    if (text[colon] !== ':') return members;
    const valueStart = skipSpace(text, colon + 1);
    const valueEnd = valueEndAt(text, valueStart);
    if (valueEnd < 0) return members;
    members[keyOf(text.slice(keyStart, keyEnd))] = text.slice(valueStart, valueEnd);
    at = skipSpace(text, valueEnd);
    if (text[at] !== ',') return members;
  }
}

/** Same, read backward from the object's closing brace at the end of `text`. */
function tailMembers(text: string): Members {
  const members: Members = Object.create(null);
  let at = skipSpaceBack(text, text.length);
  if (text[at - 1] !== '}') return members;
  at -= 1;
  for (;;) {
    const valueEnd = skipSpaceBack(text, at);
    const valueStart = valueStartAt(text, valueEnd);
    if (valueStart < 0) return members;
    const colon = skipSpaceBack(text, valueStart) - 1;
    if (text[colon] !== ':') return members;
    const keyEnd = skipSpaceBack(text, colon);
    const keyStart = stringStart(text, keyEnd);
    if (keyStart < 0) return members;
    const key = keyOf(text.slice(keyStart, keyEnd));
    if (!(key in members)) members[key] = text.slice(valueStart, valueEnd);
    at = skipSpaceBack(text, keyStart) - 1;
    if (text[at] !== ',') return members;
  }
}

const SPACE = /\s/;
const SCALAR = /[\w.+-]/;

function skipSpace(text: string, at: number): number {
  while (at < text.length && SPACE.test(text[at] as string)) at += 1;
  return at;
}

function skipSpaceBack(text: string, end: number): number {
  while (end > 0 && SPACE.test(text[end - 1] as string)) end -= 1;
  return end;
}

function keyOf(json: string): string {
  return scalar(json) as string;
}

function scalar(json: string | undefined): unknown {
  try {
    return json === undefined ? undefined : JSON.parse(json);
  } catch {
    return undefined;
  }
}

/** The end of the string starting at `start`, or -1 when it does not end within `text`. */
function stringEnd(text: string, start: number): number {
  if (text[start] !== '"') return -1;
  for (let at = start + 1; at < text.length; at += 1) {
    if (text[at] === '\\') at += 1;
    else if (text[at] === '"') return at + 1;
  }
  return -1;
}

/** The start of the string ending at `end`, or -1 when `text` does not tell. */
function stringStart(text: string, end: number): number {
  if (text[end - 1] !== '"') return -1;
  for (let at = end - 2; at >= 0; at -= 1) {
    if (text[at] !== '"') continue;
    let before = at - 1;
    while (before >= 0 && text[before] === '\\') before -= 1;
    // A run of backslashes reaching the cut may have begun before it: escaped or not is unknown.
    if (before < 0 && before < at - 1) return -1;
    if ((at - 1 - before) % 2 === 0) return at;
  }
  return -1;
}

/** The end of the value starting at `start`, or -1 when it does not end within `text`. */
function valueEndAt(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first !== '{' && first !== '[') {
    let at = start;
    while (at < text.length && SCALAR.test(text[at] as string)) at += 1;
    return at === start || at === text.length ? -1 : at;
  }
  let depth = 0;
  for (let at = start; at < text.length; at += 1) {
    const char = text[at];
    if (char === '"') at = stringEnd(text, at) - 1;
    if (at < 0) return -1;
    if (char === '{' || char === '[') depth += 1;
    if ((char === '}' || char === ']') && --depth === 0) return at + 1;
  }
  return -1;
}

/** The start of the value ending at `end`, or -1 when it does not start within `text`. */
function valueStartAt(text: string, end: number): number {
  const last = text[end - 1];
  if (last === '"') return stringStart(text, end);
  if (last !== '}' && last !== ']') {
    let at = end;
    while (at > 0 && SCALAR.test(text[at - 1] as string)) at -= 1;
    return at === end || at === 0 ? -1 : at;
  }
  let depth = 0;
  for (let at = end - 1; at >= 0; at -= 1) {
    const char = text[at];
    if (char === '"') at = stringStart(text, at + 1);
    if (at < 0) return -1;
    if (char === '}' || char === ']') depth += 1;
    if ((char === '{' || char === '[') && --depth === 0) return at;
  }
  return -1;
}
