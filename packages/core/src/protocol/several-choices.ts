// docs/gateway-protocol.md §4.3 (an answer of several choices; a stream carries choice 0).

/**
 * Whether a request's `n` may have the server generate more than one choice: anything but no `n`,
 * `null` (the server's default, one) or a number up to 1 (0 or below, a server refuses itself:
 * nothing is generated). A value that is not a number counts: a lax server (pydantic's lax mode,
 * as vLLM and LiteLLM read a request) takes `"2"` as 2, and what a server makes of any other is
 * unknown. The adapters refuse such an `n` on a stream, which has a place for one choice only.
 */
export function asksSeveralChoices(n: unknown): boolean {
  return n !== undefined && n !== null && !(typeof n === 'number' && n <= 1);
}
