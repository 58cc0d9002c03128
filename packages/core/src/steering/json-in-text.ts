// docs/gateway-protocol.md §4.8 (structured output: a code fence is accepted, the caller gets clean JSON).
/**
 * The one rule for where a text answer's JSON is, read as the text comes (a stream's deltas, split
 * anywhere) or whole (`jsonInText`): text that starts as JSON does (`{`, `[`, `"`, after
 * whitespace) is the JSON, as it is from its first character; else the content of its first
 * code fence (```` ``` ```` with an optional info string such as `json` or `JSON` on its line, or
 * `json` and the JSON on the same line; the closing ```` ``` ```` at a line's start or right after
 * a `}` or `]`, so backticks inside its strings close nothing, though a `}` or `]` just before them
 * in a string fakes a close), the prose before the fence and everything after its close (prose, a
 * second fence) left out; a text with no fence is the JSON as it is, for the check to refuse. A
 * fence never closed runs to the text's end.
 */
export class JsonTextReader {
  /** Text held back: all of it while deciding, then what a fence's content may not hold. */
  #held = '';
  /** Deciding: where in `#held` a fence may still start. */
  #from = 0;
  /** 0 deciding, 1 in a fence (2: some content given), 3 after its close, 4 deltas pass as they are. */
  #at = 0;
  /** In a fence: the character before `#held` (a line's end, `}`, `]`: a close may follow). */
  #before = '';

  /** The part of `delta` (with what was held before it) to give now; may be empty. */
  read(delta: string): string {
    if (this.#at > 2) return this.#at > 3 ? delta : '';
    return this.#next(this.#held + delta, false);
  }

  /** The text's end: what is still held and belongs to the JSON. Later deltas pass as they are. */
  end(): string {
    const rest = this.#at > 2 ? '' : this.#next(this.#held, true);
    this.#at = 4;
    return rest;
  }

  /**
   * A refusal came (its words are not the text): prose held while no fence has begun is given as
   * it is, later deltas then passing as they are; a fence's start or content held waits for more.
   */
  settle(): string {
    return this.#at === 0 && /\S/.test(this.#held) && !this.#held.includes('`') ? this.end() : '';
  }

  #next(text: string, ended: boolean): string {
    this.#held = text;
    if (this.#at === 0) {
      OPENING.lastIndex = this.#from;
      const open = OPENING.exec(text);
      if (JSON_FIRST.test(text) || (ended && !open)) {
        this.#at = 4;
        // The whitespace before it left out, as `jsonInText` trims it: streamed and whole agree.
        return text.trimStart();
      }
      const after = open ? open.index + open[0].length : 0;
      // No fence yet, or its first line may still be a tag: held (prose before it is left out).
      if (!open || (!ended && !open[2] && after === text.length)) {
        this.#from = open ? open.index : Math.max(0, text.length - 2);
        return '';
      }
      // After a tag on its own line or `json`; else the JSON starts right after the backticks.
      const from = open[2] || /^json$/i.test(open[1]!) ? after : open.index + 3;
      this.#before = text[from - 1]!;
      text = text.slice(from);
      this.#at = 1;
    }
    if (this.#at === 1) {
      const content = text.trimStart();
      if (content !== text) this.#before = text[text.length - content.length - 1]!;
      text = content;
    }
    // Backticks inside the JSON's strings close nothing: a close starts its line or ends the JSON.
    const closing = CLOSING.exec(this.#before + text);
    const close = closing ? closing.index + closing[0].length - 4 : -1;
    // Trailing whitespace and backticks wait: they may end at a closing fence.
    const out =
      close >= 0
        ? text.slice(0, close).trimEnd()
        : ended
          ? text.trimEnd()
          : text.replace(/[\s`]+$/, '');
    this.#held = text.slice(out.length);
    if (out !== '') {
      this.#at = 2;
      this.#before = out.at(-1)!;
    }
    if (close >= 0) this.#at = 3;
    return out;
  }
}

/** Text that starts as JSON does: passed on as it is. */
const JSON_FIRST = /^\s*[[{"]/;

/** Whether `text` starts as JSON does (`{`, `[`, `"`, after whitespace): then it is the JSON. */
export function startsAsJson(text: string): boolean {
  return JSON_FIRST.test(text);
}

/** A fence's closing backticks, after the character before them: a line's end, a `}` or a `]`. */
const CLOSING = /[\n}\]][ \t\r]*```/;
/** A fence's opening backticks, the tag after them (`json`, `JSON`, `jsonc`, …) and its line's end. */
const OPENING = /```([\w.+-]*)[ \t\r]*(\n)?/g;

/**
 * The JSON of a whole text answer, by `JsonTextReader`'s rule, trimmed: prose around unfenced
 * JSON is not searched (where the JSON starts is then a guess).
 */
export function jsonInText(text: string): string {
  const reader = new JsonTextReader();
  return (reader.read(text) + reader.end()).trim();
}

/** A think block at a text's start (after whitespace): `<think>`, the reasoning, `</think>`. */
const THINK = /^\s*<think>([\s\S]*?)<\/think>/;

/**
 * A structured answer's text split (§4.8 item 3): the reasoning of a think block at its start (a
 * reasoning model served without a reasoning parser writes it into the text), and the text after
 * that block, where its JSON is read (`jsonInText`); no block: no reasoning, the text whole.
 */
export function splitThought(text: string): [reasoning: string | undefined, rest: string] {
  const think = THINK.exec(text);
  return think ? [think[1]!, text.slice(think[0].length)] : [undefined, text];
}
