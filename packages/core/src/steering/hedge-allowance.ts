// docs/gateway-protocol.md §4.7 (a hedged attempt: how many may be sent).
import { realmValue } from '../budget/realm';
import { setRecent } from './recently-used';

/**
 * The hedges a key may still send: each hedged call earns `maxExtra` of one, each hedge spends
 * one, and at most a few are saved up (`maxExtra × 40`, at least 2): over any run of calls, the
 * extra requests stay within `maxExtra` of them (a token bucket counted in calls, not seconds).
 * With one saved up, what a key earned while it was full was lost, and 0.05 reached 3 % on a pool
 * that wanted 7 % (B10). A fresh key starts with one hedge, not full: its first slow call is hedged
 * (a cold process sees hedging work), the next ones only as they earn (a full start hedged the
 * first two slow calls of every fresh key, 20 % extra over its first 10 calls).
 */
interface Bucket {
  tokens: number;
}

const buckets = () => realmValue('hedgeBuckets', () => new Map<string, Bucket>());

/**
 * The keys whose allowance is kept, the most recently hedged: a server with a client per user key
 * keeps those of its active keys (one forgotten starts again as a fresh key, with one hedge).
 */
export const HEDGE_ALLOWANCES_KEPT = 1024;

/** A fresh key's hedges: one, for its first slow call. */
export const FIRST_HEDGES = 1;

/** The most hedges a key saves up at `maxExtra`. */
const capacityOf = (maxExtra: number) => Math.max(2, maxExtra * 40);

/** A hedged call starts: it earns its share of a hedge. */
export function earnHedge(budgetId: string, maxExtra: number): void {
  const map = buckets();
  let bucket = map.get(budgetId);
  if (bucket === undefined) bucket = { tokens: FIRST_HEDGES };
  else bucket.tokens = Math.min(capacityOf(maxExtra), bucket.tokens + maxExtra);
  setRecent(map, budgetId, bucket, HEDGE_ALLOWANCES_KEPT);
}

/**
 * Gives back a hedge spent for nothing (no free slot to send it into), within the bucket's size:
 * other calls may have filled it meanwhile, and a refund past it would save up more hedges than
 * `maxExtra` allows (a key whose hedges keep finding no slot would then burst them all at once).
 */
export function refundHedge(budgetId: string, maxExtra: number): void {
  const bucket = buckets().get(budgetId);
  if (bucket !== undefined) bucket.tokens = Math.min(capacityOf(maxExtra), bucket.tokens + 1);
}

/** Spends one hedge when there is one to spend. */
export function spendHedge(budgetId: string): boolean {
  const bucket = buckets().get(budgetId);
  if (bucket === undefined || bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}
