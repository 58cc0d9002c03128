// docs/gateway-protocol.md §4.3 (`usage`), §5.6 (usage in a stream).
import type { Usage } from '../protocol/wire-types';

type Json = Record<string, unknown>;

/** The counts `Usage` types as numbers. */
const COUNTS = ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const;

/** A count sent as the text of a whole number (`"5"`), as some servers do. */
const NUMERIC = /^\s*\d+\s*$/;

/**
 * An answer's `usage` (an object) with its counts as numbers, read liberally: a count sent as the
 * text of a whole number is that number; one of any other type (text that is no number, a boolean,
 * an object) is left out, as if not sent. The object itself when every count is a number or absent
 * (nearly always: nothing copied), else a copy; its other fields are kept as sent.
 */
export function typedUsage(usage: Json): Usage {
  let read: Json | undefined;
  for (const key of COUNTS) {
    const value = usage[key];
    if (value === undefined || value === null || typeof value === 'number') continue;
    read ??= { ...usage };
    if (typeof value === 'string' && NUMERIC.test(value)) read[key] = Number(value);
    else delete read[key];
  }
  return (read ?? usage) as Usage;
}
