// docs/gateway-protocol.md §10.5 (the retry policy: the wait; `Retry-After`, RFC 9110's two forms).
/**
 * Core's retry policy, the wait: how long to wait before the next attempt (the answer's
 * `Retry-After`, else exponential back-off), the longest wait worth taking (`maxRetryAfterMs`),
 * and the defaults. Which failures are retryable is decided when a `GatewayError` is made
 * (errors/retryable-failure.ts, its `isRetryable`); the attempt loop retries exactly those, through
 * the call's policy, while its retries and the call's deadline allow; the AI SDK adapter, whose retries `ai` owns, reports
 * `isRetryable` with `isRetryableWithin`.
 */
import type { GatewayError } from '../errors/errors';
import { DEFAULT_MAX_RETRY_AFTER_MS } from '../errors/retryable-failure';

/** The retry options' defaults (`createGatewayClient`'s `maxRetries`, `maxRetryAfterMs`, `retryBaseDelayMs`). */
export const RETRY_DEFAULTS = {
  maxRetries: 2,
  maxRetryAfterMs: DEFAULT_MAX_RETRY_AFTER_MS,
  retryBaseDelayMs: 500,
} as const;

/**
 * Whether a caller whose longest acceptable wait is `maxRetryAfterMs` should retry `error`: what
 * core marked retryable, unless its `Retry-After` is longer (the AI SDK's `isRetryable`).
 */
export function isRetryableWithin(
  error: Pick<GatewayError, 'isRetryable' | 'retryAfterMs'>,
  maxRetryAfterMs: number = RETRY_DEFAULTS.maxRetryAfterMs,
): boolean {
  return (
    error.isRetryable && (error.retryAfterMs === undefined || error.retryAfterMs <= maxRetryAfterMs)
  );
}

export interface RetryLimits {
  maxRetryAfterMs: number;
  retryBaseDelayMs: number;
  /** What is left of the call's deadline. */
  remainingMs: number;
}

/**
 * How long to wait before retrying `error` when `waits` waits were taken already, or undefined when
 * it must not be retried: not retryable, or its `Retry-After` does not fit `maxRetryAfterMs` and the
 * deadline. Without `Retry-After` the wait is exponential back-off, slept even when the deadline
 * comes first: the deadline then ends the call as `timeout` (the failure as its cause), the same
 * answer whether or not the jitter happened to fit. A `Retry-After` that cannot fit is the
 * gateway's word that no retry can succeed in time: the error is thrown at once.
 */
export function retryDelay(
  error: Pick<GatewayError, 'isRetryable' | 'retryAfterMs'>,
  waits: number,
  limits: RetryLimits,
): number | undefined {
  if (!isRetryableWithin(error, limits.maxRetryAfterMs)) return undefined;
  if (error.retryAfterMs === undefined) return backoffDelay(waits, limits.retryBaseDelayMs);
  return error.retryAfterMs <= limits.remainingMs ? error.retryAfterMs : undefined;
}

/**
 * The wait before the next attempt after `failure`, when `waits` waits were taken already: none
 * once they reach `maxRetries`, else `retryDelay`'s. The one retry step of every policy.
 */
export function nextRetryWait(
  failure: Pick<GatewayError, 'isRetryable' | 'retryAfterMs'>,
  waits: number,
  limits: RetryLimits & { maxRetries: number },
): number | undefined {
  return waits < limits.maxRetries ? retryDelay(failure, waits, limits) : undefined;
}

const DELTA_SECONDS = /^\d+(\.\d+)?$/;
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** RFC 9110 §5.6.7 HTTP-date: IMF-fixdate, or the obsolete RFC 850 and asctime forms. */
const HTTP_DATE = new RegExp(
  `^(?:${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT|${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT|${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`,
);

/**
 * Parses a `Retry-After` header per RFC 9110 §10.2.3: delta-seconds (digits; a decimal fraction is
 * accepted too) or an HTTP-date. Anything else (`-1`, `5, 6`, `soon`) is ignored, not read as 0.
 * Returns milliseconds to wait (≥ 0), or undefined when absent or unreadable.
 *
 * An HTTP-date is wall-clock time by nature, so it alone is read against `Date.now()`: once, when
 * the answer arrives, into a wait that is then slept on timers like any other (a step of the wall
 * clock after that does not move it; one just before it does, as it would for any reader).
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (DELTA_SECONDS.test(text)) {
    const ms = Math.round(Number(text) * 1000);
    return Number.isFinite(ms) ? ms : undefined;
  }
  if (!HTTP_DATE.test(text)) return undefined;
  // asctime has no zone (it is GMT); Date.parse would read it as local time.
  const date = Date.parse(
    !text.includes(',') ? `${text} GMT` : text.includes('-') ? rfc850ToImf(text) : text,
  );
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** `Sunday, 06-Nov-94 08:49:37 GMT` → `06 Nov 1994 08:49:37 GMT` (two-digit years: RFC 9110 says within 50 years). */
function rfc850ToImf(text: string): string {
  const [, day, month, year, rest] = /, (\d{2})-(\w{3})-(\d{2}) (.*)$/.exec(text) ?? [];
  if (year === undefined) return text;
  const currentYear = new Date().getUTCFullYear();
  let full = Math.floor(currentYear / 100) * 100 + Number(year);
  if (full > currentYear + 50) full -= 100;
  return `${day} ${month} ${full} ${rest}`;
}

/** Exponential backoff with equal jitter: a random delay in [base·2^waits / 2, base·2^waits], capped. */
function backoffDelay(waits: number, baseMs: number, capMs = 30_000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** waits);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
