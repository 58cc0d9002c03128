// docs/gateway-protocol.md §4.1, §6, §7 (request texts are UTF-8), §11 (limits counted in UTF-8 bytes).
import { invalidRequest } from '../errors/errors';

/** The engine's own check (ES2024: Node ≥ 20, current browsers, Deno, Bun, workerd), when there. */
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean })
  .isWellFormed;

/**
 * The index of the first lone surrogate in `text` (a high one not followed by a low one, or a low
 * one without a high one before it), -1 when there is none.
 */
export function loneSurrogateAt(text: string): number {
  if (isWellFormed?.call(text) === true) return -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return i;
    i++;
  }
  return -1;
}

/**
 * Refuses a text with a lone surrogate, a string cut inside a character (`.slice()` through an
 * emoji): it has no UTF-8 form, so JSON.stringify would send it as `\ud83d`, which a strict reader
 * (serde_json, Python's UTF-8 encoding) refuses. Strict in what we send: refused before sending,
 * naming the field and the index of the cut, in code units as `.slice()` counts.
 */
export function checkWellFormed(field: string, text: string): void {
  const at = loneSurrogateAt(text);
  if (at !== -1) throw loneSurrogate(field, at);
}

/** The refusal of a text whose lone surrogate is at `at` (`checkWellFormed`). */
export function loneSurrogate(field: string, at: number) {
  return invalidRequest(
    field,
    `has a lone surrogate at index ${at} (a string cut inside a character)`,
  );
}
