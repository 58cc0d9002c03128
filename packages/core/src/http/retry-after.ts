// docs/gateway-protocol.md §10.5 (`Retry-After`, RFC 9110's two forms).
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

/** Exponential backoff with full jitter: a random delay in [base·2^attempt / 2, base·2^attempt], capped. */
export function backoffDelay(attempt: number, baseMs: number, capMs = 30_000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
