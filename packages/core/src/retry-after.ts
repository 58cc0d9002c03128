/**
 * Parses a `Retry-After` header: delta-seconds (integer or decimal) or an HTTP date.
 * Returns milliseconds to wait (≥ 0), or undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Exponential backoff with full jitter: a random delay in [base·2^attempt / 2, base·2^attempt], capped. */
export function backoffDelay(attempt: number, baseMs: number, capMs = 30_000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
