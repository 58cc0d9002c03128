// docs/gateway-protocol.md §4.7 (the order counts this realm's own calls in flight to a model, and
// knows which of them a catalog read counted).
import { realmValue } from '../budget/realm';
import type { Catalog } from '../catalog/catalog';
import type { GatewayModel } from '../protocol/wire-types';

/**
 * Chat requests this realm has in flight, per (budget id, model): what the order by room
 * adds to a catalog entry's `inflight`, a snapshot up to `catalogTtlMs` old that does not count
 * the calls sent since. Kept on the realm's shared state beside the default budget (budget/realm.ts),
 * so the ESM and the CJS copy of core count the same requests.
 */
const counts = () => realmValue('modelInflight', () => new Map<string, number>());

/** A `GET /models` read under way: our requests per model that its answer may count. */
interface Watch {
  budgetId: string;
  ours: Map<string, number>;
}

/** The reads under way (usually none: counting a request is then one map update). */
const watches = () => realmValue('modelInflightWatches', () => new Set<Watch>());

const keyOf = (budgetId: string, model: string) => `${budgetId}\n${model}`;

/** Chat requests in flight from this realm to `model` under the budget `budgetId`. */
export function modelInflight(budgetId: string, model: string): number {
  return counts().get(keyOf(budgetId, model)) ?? 0;
}

/** Counts one more request to `model`; the returned function ends the count (once). */
export function countModelInflight(budgetId: string, model: string): () => void {
  const inflight = counts();
  const key = keyOf(budgetId, model);
  inflight.set(key, (inflight.get(key) ?? 0) + 1);
  for (const watch of watches()) {
    if (watch.budgetId === budgetId) watch.ours.set(model, (watch.ours.get(model) ?? 0) + 1);
  }
  let counted = true;
  return () => {
    if (!counted) return;
    counted = false;
    const left = (inflight.get(key) ?? 1) - 1;
    if (left > 0) inflight.set(key, left);
    else inflight.delete(key);
  };
}

/**
 * Starts counting, for a `GET /models` read about to be sent, the requests under `budgetId` that
 * its `inflight` may include: those in flight now, and those sent before `stop()` (its answer
 * read). The gateway counted ours at some moment in between; subtracting these leaves at least
 * the others' (§4.7). `stop()` ends the count and returns it, per model.
 */
export function watchModelInflight(budgetId: string): () => ReadonlyMap<string, number> {
  const prefix = `${budgetId}\n`;
  const ours = new Map<string, number>();
  for (const [key, count] of counts()) {
    if (key.startsWith(prefix)) ours.set(key.slice(prefix.length), count);
  }
  const watch = { budgetId, ours };
  watches().add(watch);
  return () => {
    watches().delete(watch);
    return ours;
  };
}

/** Per models list read, this realm's requests per model its `inflight` may count. */
const oursAtRead = new WeakMap<readonly GatewayModel[], ReadonlyMap<string, number>>();

/**
 * Makes `catalog` record, for each `GET /models` read from now on, our requests its `inflight` may
 * count (model-inflight.ts): kept with the list, which calls planned on it hold after a newer read.
 */
export function watchCatalogReads(catalog: Catalog, budgetId: string): void {
  if (catalog.onModelsRead !== undefined) return;
  catalog.onModelsRead = () => {
    const stop = watchModelInflight(budgetId);
    return (list) => {
      const ours = stop();
      if (list !== undefined) oursAtRead.set(list, ours);
    };
  };
}

/** Others' requests a listed model's `inflight` counted: ours it may include taken off. */
export function othersInflight(
  list: readonly GatewayModel[],
  entry: GatewayModel | undefined,
  model: string,
): number {
  const inflight = typeof entry?.inflight === 'number' ? entry.inflight : 0;
  return Math.max(0, inflight - (oursAtRead.get(list)?.get(model) ?? 0));
}
