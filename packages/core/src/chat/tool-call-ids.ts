// docs/gateway-protocol.md §4.4 (tool calls), §5.4 (dialects: calls without an id, ids repeated).

/**
 * The ids of one answer's tool calls, each unique in the answer. A call keeps the server's id
 * unless an earlier call of the answer already has it (DeepSeek, GLM and some OpenRouter engines
 * give parallel calls one id: a history holding it twice is refused, and frameworks keep one
 * result per id). Such a call, and a call without an id, gets `<base>_<n>_<tag>`: `base` the id
 * it was given, else `call_<index>`; `n` the call's order in the answer (so two ids made here never
 * meet); `tag` 12 random hex digits drawn once per answer (`call_<index>_<n>` alone would recur at
 * every step of a tool loop). One that meets an id the server gave earlier draws a new tag.
 */
export class ToolCallIds {
  readonly #taken = new Set<string>();
  #tag: string | undefined;

  /** The id of the answer's call number `order` (from 0), sent at `index` with `given` (or none). */
  take(given: string | undefined, index: number, order: number): string {
    let id = given;
    if (id === undefined || this.#taken.has(id)) {
      const base = id ?? `call_${index}`;
      this.#tag ??= answerTag();
      id = `${base}_${order}_${this.#tag}`;
      while (this.#taken.has(id)) {
        this.#tag = answerTag();
        id = `${base}_${order}_${this.#tag}`;
      }
    }
    this.#taken.add(id);
    return id;
  }
}

/** 12 random hex digits. */
function answerTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  let tag = '';
  for (const byte of bytes) tag += byte.toString(16).padStart(2, '0');
  return tag;
}
