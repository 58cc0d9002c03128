// `startHttpServer`'s option values, checked before anything listens. A wrong one would weaken its protection (a string for `allowedHosts`
// is searched as text, a one-letter token is guessed) or leave it unusable (no session allowed).
import { describeGiven, MAX_TIMEOUT_MS, readNumber, refusal } from '@infergate/core/internal';
import { bearerTokenFault } from './bearer-token';
import type { HttpServerOptions } from './http-server';

const PLACE = 'startHttpServer option';

const isNonEmptyStringList = (value: unknown) =>
  Array.isArray(value) && value.every((entry) => typeof entry === 'string' && entry.trim() !== '');

/**
 * Refuses an option value of the wrong type or out of range with `configuration_error` naming the
 * option, what was given (the token by its length only) and the rule.
 */
export function checkHttpServerOptions(options: HttpServerOptions): void {
  const given = options as Record<string, unknown>;
  if (given.port !== undefined) {
    readNumber(given.port, { kind: 'integer', min: 0, max: 65_535 }, 'port', PLACE);
  }
  for (const key of ['maxSessions', 'sessionIdleMs'] as const) {
    if (given[key] === undefined) continue;
    // maxSessions: 0 would refuse every client; sessionIdleMs: 0 turns the sweep off.
    const min = key === 'maxSessions' ? 1 : 0;
    const unit = key === 'sessionIdleMs' ? 'ms' : undefined;
    readNumber(given[key], { kind: 'integer', min, max: MAX_TIMEOUT_MS, unit }, key, PLACE);
  }
  if (given.host !== undefined && (typeof given.host !== 'string' || given.host.trim() === '')) {
    throw refusal(
      PLACE,
      'host',
      `must be a host name or address, got ${describeGiven(given.host)}`,
    );
  }
  if (given.path !== undefined && (typeof given.path !== 'string' || !given.path.startsWith('/'))) {
    const shown =
      typeof given.path === 'string' ? JSON.stringify(given.path) : describeGiven(given.path);
    throw refusal(PLACE, 'path', `must be a path starting with "/" (such as "/mcp"), got ${shown}`);
  }
  for (const key of ['allowedHosts', 'allowedOrigins'] as const) {
    const value = given[key];
    if (value === undefined || isNonEmptyStringList(value)) continue;
    const example = key === 'allowedHosts' ? '["mcp.example.com"]' : '["http://localhost:5173"]';
    throw refusal(
      PLACE,
      key,
      `must be an array of non-empty strings (${example}), got ${describeGiven(value)}`,
    );
  }
  // Never the token itself: its type or length only.
  const fault = given.token === undefined ? undefined : bearerTokenFault(given.token);
  if (fault !== undefined) throw refusal(PLACE, 'token', fault);
}
