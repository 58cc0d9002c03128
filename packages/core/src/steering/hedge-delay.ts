// docs/gateway-protocol.md §4.7 (a hedged attempt: when it is sent).
import { realmValue } from '../budget/realm';
import { setRecent } from './recently-used';

/**
 * `hedge.afterMs: 'auto'`: the wait starts from a prior (`priorMs`: the catalog and the gateway
 * give no latency, so a fixed first guess, past a healthy model's usual time to first chunk) and
 * moves to the model's running p95 time to first content (a non-streamed call's: to its answer)
 * over its last `samples` answers as they arrive: with `n` of `learnedAt` answers seen, the wait is
 * `n / learnedAt` of the way from the prior to their p95, and the p95 alone from `learnedAt` on.
 * Always within `floorMs` and `ceilingMs`. A cold process hedges its first slow call at the prior.
 */
export const AUTO_HEDGE = {
  floorMs: 50,
  ceilingMs: 10_000,
  samples: 64,
  learnedAt: 16,
  /** Streams: time to the first chunk. Whole answers: time to the answer, which the length grows. */
  priorMs: { stream: 2_000, whole: 8_000 },
} as const;

/** A model's last times to first content, in a ring. */
interface Timings {
  samples: number[];
  next: number;
}

/**
 * Per (budget id, model, streamed or not), on the realm's shared state (budget/realm.ts). Kept in
 * the process, not shared through a `KeyBudget` (Redis): see "Hedging" in the README.
 */
const timings = () => realmValue('hedgeTimings', () => new Map<string, Timings>());

/**
 * The (budget id, model, kind) whose timings are kept, the most recently answered: a server with a
 * client per user key keeps those of its active keys (one forgotten starts again from the prior).
 */
export const HEDGE_TIMINGS_KEPT = 1024;

const keyOf = (budgetId: string, model: string, stream: boolean) =>
  `${budgetId}\n${model}\n${stream ? 's' : 'j'}`;

/** `model` took `ms` from its request to its first content (or, not streamed, to its answer). */
export function recordFirstContent(
  budgetId: string,
  model: string,
  stream: boolean,
  ms: number,
): void {
  const map = timings();
  const key = keyOf(budgetId, model, stream);
  const seen = map.get(key) ?? { samples: [], next: 0 };
  setRecent(map, key, seen, HEDGE_TIMINGS_KEPT);
  seen.samples[seen.next] = ms;
  seen.next = (seen.next + 1) % AUTO_HEDGE.samples;
}

/**
 * How long a call on `model` waits for its first content before it is hedged. `limitMs`: the
 * first attempt's limit, the shorter of its first-content stall timeout and the call's time left
 * (a fixed `afterMs` not below it is refused up front: steering-options.ts). `'auto'` waits at
 * most half of it (`autoDelayCap`), below its floor too: an estimate past the limit would never
 * hedge, and the stall would move the call on unhedged and unreported.
 */
export function hedgeDelay(
  afterMs: number | 'auto',
  budgetId: string,
  model: string,
  stream: boolean,
  limitMs = Number.POSITIVE_INFINITY,
): number {
  if (afterMs !== 'auto') return afterMs;
  const samples = timings().get(keyOf(budgetId, model, stream))?.samples ?? [];
  const wait = autoDelay(samples, stream ? AUTO_HEDGE.priorMs.stream : AUTO_HEDGE.priorMs.whole);
  return Math.min(wait, autoDelayCap(limitMs));
}

/**
 * The longest `'auto'` wait under a limit of `limitMs`: half of it. A hedge sent just before the
 * stall would only double the failover the stall sends a moment later; at half, the hedge has as
 * long to deliver as the first attempt still has before the stall moves the call on.
 */
export const autoDelayCap = (limitMs: number): number => Math.floor(limitMs / 2);

/** The prior moved towards the samples' p95 by their number, within the floor and ceiling. */
export function autoDelay(samples: readonly number[], priorMs: number): number {
  const weight = Math.min(1, samples.length / AUTO_HEDGE.learnedAt);
  const learned = weight === 0 ? priorMs : p95(samples);
  const wait = (1 - weight) * priorMs + weight * learned;
  return Math.min(AUTO_HEDGE.ceilingMs, Math.max(AUTO_HEDGE.floorMs, wait));
}

function p95(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}
