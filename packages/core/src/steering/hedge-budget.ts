// docs/gateway-protocol.md §4.7 (a hedged attempt: when it is sent, and how many may be).
import { realmValue } from '../budget/realm';

/**
 * `hedge.afterMs: 'auto'`: the wait is the running p95 of the model's time to first content (a
 * non-streamed call's: to its answer) over its last `samples` answers, within `floorMs` and
 * `ceilingMs`; with fewer than `minSamples` answers seen, the ceiling.
 */
export const AUTO_HEDGE = { floorMs: 50, ceilingMs: 10_000, samples: 64, minSamples: 16 } as const;

/** A model's last times to first content, in a ring. */
interface Timings {
  samples: number[];
  next: number;
}

/** Per (budget id, model, streamed or not), on the realm's shared state (budget/realm.ts). */
const timings = () => realmValue('hedgeTimings', () => new Map<string, Timings>());

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
  let seen = map.get(key);
  if (seen === undefined) {
    seen = { samples: [], next: 0 };
    map.set(key, seen);
  }
  seen.samples[seen.next] = ms;
  seen.next = (seen.next + 1) % AUTO_HEDGE.samples;
}

/** How long a call on `model` waits for its first content before it is hedged. */
export function hedgeDelay(
  afterMs: number | 'auto',
  budgetId: string,
  model: string,
  stream: boolean,
): number {
  if (afterMs !== 'auto') return afterMs;
  const samples = timings().get(keyOf(budgetId, model, stream))?.samples ?? [];
  if (samples.length < AUTO_HEDGE.minSamples) return AUTO_HEDGE.ceilingMs;
  const sorted = [...samples].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
  return Math.min(AUTO_HEDGE.ceilingMs, Math.max(AUTO_HEDGE.floorMs, p95));
}

/**
 * The hedges a key may still send: each hedged call earns `maxExtra` of one, each hedge spends
 * one, and at most a few are saved up (`maxExtra × 40`, at least 2): over any run of calls, the
 * extra requests stay within `maxExtra` of them (a token bucket counted in calls, not seconds).
 * With one saved up, what a key earned while it was full was lost, and the default 0.05 reached 3 %
 * on a pool that wanted 7 % (B10).
 */
interface Bucket {
  tokens: number;
}

const buckets = () => realmValue('hedgeBuckets', () => new Map<string, Bucket>());

/** A hedged call starts: it earns its share of a hedge. */
export function earnHedge(budgetId: string, maxExtra: number): void {
  const capacity = Math.max(2, maxExtra * 40);
  const map = buckets();
  const bucket = map.get(budgetId);
  if (bucket === undefined) map.set(budgetId, { tokens: capacity });
  else bucket.tokens = Math.min(capacity, bucket.tokens + maxExtra);
}

/** Gives back a hedge spent for nothing (no free slot to send it into). */
export function refundHedge(budgetId: string): void {
  const bucket = buckets().get(budgetId);
  if (bucket !== undefined) bucket.tokens += 1;
}

/** Spends one hedge when there is one to spend. */
export function spendHedge(budgetId: string): boolean {
  const bucket = buckets().get(budgetId);
  if (bucket === undefined || bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}
