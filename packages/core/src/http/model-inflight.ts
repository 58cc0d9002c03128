// docs/gateway-protocol.md §4.7 (the order counts this process's own calls in flight to a model).
import type { ReleaseSlot } from '../budget/key-budget';

/**
 * Chat requests this realm has in flight, per (budget id, model): what the order of
 * `fallbackModels` adds to a catalog entry's `inflight`, which is a snapshot up to
 * `catalogTtlMs` old and does not yet count the calls sent since.
 */
const inflight = new Map<string, number>();

const keyOf = (budgetId: string, model: string) => `${budgetId}\n${model}`;

/** A `GET /models` read under way: our requests per model that its answer may count. */
interface Watch {
  budgetId: string;
  ours: Map<string, number>;
}

/** The reads under way (usually none: the loop in `countModelInflight` is then free). */
const watches = new Set<Watch>();

/**
 * Starts counting, for a `GET /models` read about to be sent, the requests under `budgetId` that
 * its `inflight` may include: those in flight now, and those sent before `stop()` (its answer
 * read). The gateway counted ours at some moment in between; subtracting these leaves at least
 * the others' (§4.7). `stop()` ends the count and returns it, per model.
 */
export function watchModelInflight(budgetId: string): () => ReadonlyMap<string, number> {
  const prefix = `${budgetId}\n`;
  const ours = new Map<string, number>();
  for (const [key, count] of inflight) {
    if (key.startsWith(prefix)) ours.set(key.slice(prefix.length), count);
  }
  const watch = { budgetId, ours };
  watches.add(watch);
  return () => {
    watches.delete(watch);
    return ours;
  };
}

/** Chat requests in flight from this realm to `model` under the budget `budgetId`. */
export function modelInflight(budgetId: string, model: string): number {
  return inflight.get(keyOf(budgetId, model)) ?? 0;
}

/**
 * Counts one more request to `model` until `release` (a slot's release) is called: the returned
 * release gives the slot back and the count with it, once.
 */
export function countModelInflight(
  budgetId: string,
  model: string,
  release: ReleaseSlot,
): ReleaseSlot {
  const key = keyOf(budgetId, model);
  inflight.set(key, (inflight.get(key) ?? 0) + 1);
  for (const watch of watches) {
    if (watch.budgetId === budgetId) watch.ours.set(model, (watch.ours.get(model) ?? 0) + 1);
  }
  let counted = true;
  return () => {
    if (counted) {
      counted = false;
      const left = (inflight.get(key) ?? 1) - 1;
      if (left > 0) inflight.set(key, left);
      else inflight.delete(key);
    }
    release();
  };
}
