// docs/gateway-protocol.md §4.8 (structured output: a code fence is accepted, the caller gets clean JSON).

/**
 * Reads a structured answer's text deltas as they stream and leaves out a code fence around the
 * JSON (an opening ```` ```json ```` or ```` ``` ```` line, after optional whitespace, and its
 * closing fence), so that `ai` parses partial objects from clean JSON. Core checks and cleans the
 * whole answer at the end, but passes the deltas on as the model sent them.
 *
 * Only the characters that may still turn out to be a fence are held back: the answer's leading
 * whitespace and backticks until its first other character; inside a fence, trailing whitespace
 * and backticks until a delta shows what follows them. A JSON string cannot hold a raw newline, so
 * a newline followed by ```` ``` ```` inside the fence is its closing fence; what follows is dropped.
 */
export class JsonFenceReader {
  #state: 'start' | 'inside' | 'closed' | 'plain' = 'start';
  /** Text held back, not yet given. */
  #held = '';

  /** `true` once the answer is known not to open with a fence: deltas then pass as they are. */
  get plain(): boolean {
    return this.#state === 'plain';
  }

  /** The part of `delta` (with what was held before it) to give now; may be empty. */
  read(delta: string): string {
    const text = this.#held + delta;
    this.#held = '';
    if (this.#state === 'start') return this.#opening(text);
    if (this.#state === 'inside') return this.#inside(text);
    return this.#state === 'plain' ? text : '';
  }

  /** The answer's end: what is still held and belongs to it (a fence's leftovers do not). */
  end(): string {
    const held = this.#state === 'start' ? this.#held : '';
    this.#held = '';
    this.#state = 'plain';
    return held;
  }

  #opening(text: string): string {
    let i = 0;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (text.startsWith('```', i)) {
      // The fence's info string (`json`) and spaces, up to the end of its line.
      let j = i + 3;
      while (j < text.length && isInfo(text.charCodeAt(j))) j++;
      if (j === text.length) {
        this.#held = text;
        return '';
      }
      if (text.charCodeAt(j) === NEWLINE) j++;
      this.#state = 'inside';
      return this.#inside(text.slice(j));
    }
    const rest = text.slice(i);
    if (rest === '' || '```'.startsWith(rest)) {
      this.#held = text;
      return '';
    }
    this.#state = 'plain';
    return text;
  }

  #inside(text: string): string {
    const close = CLOSING_FENCE.exec(text);
    if (close !== null) {
      this.#state = 'closed';
      return text.slice(0, close.index);
    }
    let k = text.length;
    while (k > 0 && (isSpace(text.charCodeAt(k - 1)) || text.charCodeAt(k - 1) === BACKTICK)) k--;
    this.#held = text.slice(k);
    return k === text.length ? text : text.slice(0, k);
  }
}

const NEWLINE = 10;
const BACKTICK = 96;
const CLOSING_FENCE = /\n[ \t]*```/;

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** A character of a fence's info string (`json`, `jsonc`, `json5`) or a space after it. */
function isInfo(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 32 ||
    code === 9 ||
    code === 13
  );
}
