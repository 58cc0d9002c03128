// The rule for this server's own bearer token, read by both its doors: the command line
// (`--token`, `INFERGATE_MCP_TOKEN`) and `startHttpServer`'s `token` option. A short token is
// guessed; one with a space at an end is a copy-paste slip the client would never send back.
import { kindOf } from '@infergate/core/internal';

/** Shortest token taken. */
export const MIN_TOKEN_LENGTH = 16;

/**
 * What is wrong with a token ("must be … , got a string of 9 characters"), never quoting it (its
 * type or length only); undefined when it meets the rule.
 */
export function bearerTokenFault(token: unknown): string | undefined {
  const rule = `must be a string of at least ${MIN_TOKEN_LENGTH} characters with no space at either end (use a random secret)`;
  if (typeof token !== 'string') return `${rule}, got ${kindOf(token)}`;
  const trimmed = token.trim();
  if (token.length >= MIN_TOKEN_LENGTH && trimmed === token) return undefined;
  const note = trimmed === '' ? ' (blank)' : trimmed !== token ? ' (spaces at an end)' : '';
  return `${rule}, got a string of ${token.length} characters${note}`;
}
