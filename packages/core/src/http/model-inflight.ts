// docs/gateway-protocol.md §4.7 (the order counts this process's own calls in flight to a model).
import type { ReleaseSlot } from '../budget/key-budget';

/**
 * Chat requests this realm has in flight, per (budget id, model): what the order of
 * `fallbackModels` adds to a catalog entry's `inflight`, which is a snapshot up to
 * `catalogTtlMs` old and does not yet count the calls sent since.
 */
const inflight = new Map<string, number>();

const keyOf = (budgetId: string, model: string) => `${budgetId}\n${model}`;

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
