// docs/gateway-protocol.md §5.1 (`data:` events), §5.4 (the SSE format's lines), §10.4
// (`response_too_large`).
import { GatewayError } from '../../errors/errors';

/**
 * Longest SSE line, and longest event (its `data` lines joined), in UTF-16 code units: 8 Mi. A
 * chat event is a few hundred; an unterminated line must not grow until the heap runs out.
 */
const SSE_MAX_EVENT_CHARS = 8 * 1024 * 1024;

const LF = 10;
const SPACE = 32;
const COLON = 58;
const BOM = 0xfeff;
/** An `event` field line; its value (after `:` and one optional space) is group 1. */
const EVENT = /^event(?:$|: ?(.*))/;

/**
 * Splits the text of a server-sent event stream into the `data` of each event, as the WHATWG
 * "parse an event stream" algorithm does, keeping only what a chat stream uses: lines end with
 * LF, CR or CRLF (also when the pair is split across feeds); `data` lines of one event are joined
 * with `\n`; a blank line dispatches an event that had at least one `data` line; comments (`:`)
 * and the other fields (`id`, `retry`, unknown) are ignored; one leading U+FEFF (BOM) is dropped.
 * Of the `event` field only the type `error` counts: that event's data goes to `onError` when one
 * is given (some servers report a failure so). Text may be fed in any pieces. An unterminated last
 * event is dropped by `end`.
 */
export class SseDataSplitter {
  readonly #onData: (data: string) => void;
  /** Where the current event's data goes: `#onData`, or `#toError` after an `event: error` line. */
  #dispatch: (data: string) => void;
  /** Sends one event's data to the error handler (`#onData` without one); the next is typed anew. */
  readonly #toError: (data: string) => void;
  /** Pieces of a line not yet terminated (joined once its end arrives). */
  #pending: string[] = [];
  #pendingChars = 0;
  readonly #maxChars: number;
  /** Data of the event being read; undefined before its first `data` line. */
  #data: string | undefined;
  /** Characters of the `data` lines read into `#data` (each with its field name and line end). */
  #dataLineChars = 0;
  /** Characters fed so far (less a BOM and a CRLF's LF dropped). */
  #fedChars = 0;
  #atStart = true;
  /** The last feed ended with CR: a LF starting the next one completes a CRLF. */
  #afterCR = false;
  /** Whom the limit's error names (read when it is thrown: a served model is learnt late). */
  readonly #models: { requestedModel?: string; servedModel?: string };

  constructor(
    onData: (data: string) => void,
    maxEventChars = SSE_MAX_EVENT_CHARS,
    onError?: (data: string) => void,
    models: { requestedModel?: string; servedModel?: string } = {},
  ) {
    this.#models = models;
    this.#onData = onData;
    this.#dispatch = onData;
    this.#maxChars = maxEventChars;
    this.#toError = onError
      ? (data) => {
          this.#dispatch = onData;
          onError(data);
        }
      : onData;
  }

  #tooLong(what: string): GatewayError {
    const { requestedModel, servedModel } = this.#models;
    return new GatewayError({
      code: 'response_too_large',
      message: `An SSE ${what} passed the SSE event limit (${this.#maxChars} characters); the stream was stopped`,
      requestedModel,
      servedModel,
    });
  }

  /**
   * Characters of whole events read so far (dispatched, or dropped as having no data, comments
   * included): what was fed, less the line not yet ended and the `data` lines of the event not yet
   * dispatched. What a stream sent before a line or event still being read.
   */
  get settledChars(): number {
    return this.#fedChars - this.#pendingChars - this.#dataLineChars;
  }

  /**
   * Characters of `data` fed but in no event yet: the `data` lines of the event not yet ended by a
   * blank line, and a `data` line not yet ended (0: none). `end` drops them.
   */
  get heldDataChars(): number {
    // Asked once, as the input ends: the pieces are joined for it.
    const dataLine = this.#pending.join('').startsWith('data');
    return this.#dataLineChars + (dataLine ? this.#pendingChars : 0);
  }

  feed(text: string): void {
    if (text === '') return;
    if (this.#atStart) {
      this.#atStart = false;
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
    }
    if (this.#afterCR) {
      this.#afterCR = false;
      if (text.charCodeAt(0) === LF) text = text.slice(1);
    }
    this.#fedChars += text.length;
    let lf = text.indexOf('\n');
    let cr = text.indexOf('\r');
    if (this.#pending.length > 0) {
      this.#pending.push(text);
      this.#pendingChars += text.length;
      // A long line in many small pieces is joined once, not once per piece.
      if (lf === -1 && cr === -1) {
        if (this.#pendingChars > this.#maxChars) throw this.#tooLong('line');
        return;
      }
      text = this.#pending.join('');
      this.#pending = [];
      this.#pendingChars = 0;
      lf = text.indexOf('\n');
      cr = cr === -1 ? -1 : text.indexOf('\r');
    }
    const start = cr === -1 ? this.#linesEndingLF(text, lf) : this.#lines(text, lf, cr);
    if (start < text.length) {
      const rest = start === 0 ? text : text.slice(start);
      if (rest.length > this.#maxChars) throw this.#tooLong('line');
      this.#pending.push(rest);
      this.#pendingChars = rest.length;
    }
  }

  /** The usual case, LF only: one search per line. Returns where the unfinished line starts. */
  #linesEndingLF(text: string, lf: number): number {
    let start = 0;
    while (lf !== -1) {
      // `data: …` followed by a blank line, the shape of nearly every event: dispatch at once.
      if (this.#data === undefined && text.charCodeAt(lf + 1) === LF) {
        const value = this.#dataValue(text, start, lf);
        if (value !== undefined) {
          // (A whole line can come in one feed: its length is checked here, not only while pending.)
          if (value.length > this.#maxChars) throw this.#tooLong('event');
          start = lf + 2;
          lf = text.indexOf('\n', start);
          this.#dispatch(value);
          continue;
        }
      }
      this.#line(text, start, lf);
      start = lf + 1;
      lf = text.indexOf('\n', start);
    }
    return start;
  }

  /** Lines ending in CR, LF or CRLF. Returns where the unfinished line starts. */
  #lines(text: string, lf: number, cr: number): number {
    const length = text.length;
    let start = 0;
    while (lf !== -1 || cr !== -1) {
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      this.#line(text, start, end);
      start = end + 1;
      if (end === cr) {
        if (start === length) this.#afterCR = true;
        else if (text.charCodeAt(start) === LF) start++;
      }
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    }
    return start;
  }

  /**
   * The data of the event no blank line ended yet: its `data` lines, and the line not yet ended
   * when it is a `data` line; undefined when none holds data.
   */
  heldData(): string | undefined {
    const line = this.#pending.join('');
    const value = this.#dataValue(line, 0, line.length);
    if (value === undefined) return this.#data;
    return this.#data === undefined ? value : `${this.#data}\n${value}`;
  }

  /** The event being read was typed `error` (its data goes to the error handler). */
  get heldIsError(): boolean {
    return this.#dispatch !== this.#onData;
  }

  /** The input ended: an event not closed by a blank line is dropped (as SSE says). */
  end(): void {
    this.#pending = [];
    this.#pendingChars = 0;
    this.#data = undefined;
    this.#dataLineChars = 0;
    this.#afterCR = false;
    this.#dispatch = this.#onData;
  }

  #line(text: string, start: number, end: number): void {
    if (end - start > this.#maxChars) throw this.#tooLong('line');
    if (start === end) {
      const data = this.#data;
      if (data !== undefined) {
        this.#data = undefined;
        this.#dataLineChars = 0;
        this.#dispatch(data);
        // An event without data is not dispatched, and its type ends with it (as SSE says).
      } else this.#dispatch = this.#onData;
      return;
    }
    const value = this.#dataValue(text, start, end);
    if (value === undefined) {
      // Another field (never a `data` line, so off the common path): only `event` matters.
      const type = EVENT.exec(text.slice(start, end));
      if (type) this.#dispatch = type[1] === 'error' ? this.#toError : this.#onData;
      return;
    }
    this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
    this.#dataLineChars += end - start + 1;
    if (this.#data.length > this.#maxChars) throw this.#tooLong('event');
  }

  /** The value of a `data` line (`data` alone, or `data:` and one optional space), else undefined. */
  #dataValue(text: string, start: number, end: number): string | undefined {
    if (
      text.charCodeAt(start) !== 100 || // d
      text.charCodeAt(start + 1) !== 97 || // a
      text.charCodeAt(start + 2) !== 116 || // t
      text.charCodeAt(start + 3) !== 97 // a
    ) {
      return undefined;
    }
    let valueStart = start + 4;
    if (valueStart !== end) {
      if (text.charCodeAt(valueStart) !== COLON) return undefined;
      valueStart++;
      if (text.charCodeAt(valueStart) === SPACE && valueStart < end) valueStart++;
    }
    return text.slice(valueStart, end);
  }
}
