// docs/gateway-protocol.md §4.3 (an answer of several choices; a stream carries choice 0).

/**
 * Whether a request's `n` may have the server generate more than one choice: anything but no `n`,
 * `null` (the server's default, one) or a number up to 1 (0 or below, a server refuses itself:
 * nothing is generated), or a string of such a number (`'1'`). Any other value counts: a lax server (pydantic's lax mode,
 * as vLLM and LiteLLM read a request) takes `"2"` as 2, and what a server makes of any other is
 * unknown. The adapters refuse such an `n` on a stream, which has a place for one choice only.
 */
export function asksSeveralChoices(n: unknown): boolean {
  if (n === undefined || n === null) return false;
  // (`'1'`, as a lax server reads it, is 1.)
  const count = typeof n === 'string' && n.trim() !== '' ? Number(n) : n;
  return !(typeof count === 'number' && count <= 1);
}

/**
 * The choices a stream's request asked for (`n`), read as `asksSeveralChoices` reads it, one rule
 * for every decoder of the stream (before its content and after): one unless it may ask for
 * several; then its count as a lax server reads it (`"2"` is 2), at least two when that is unknown
 * (a server that made one only ends the stream without another).
 */
export function choicesAsked(n: unknown): number {
  if (!asksSeveralChoices(n)) return 1;
  const count = typeof n === 'string' ? Number(n) : n;
  return typeof count === 'number' && Number.isInteger(count) && count >= 1 ? count : 2;
}
