// docs/gateway-protocol.md §4.7 (the order a list is tried: by capacity, then by failure share).
import { hasNoNodes } from '../protocol/endpoints';
import type { GatewayModel } from '../protocol/wire-types';
import { modelInflight, othersInflight } from './model-inflight';

/** Free capacity to take the call now (0), full (1), offline or unlisted (2): tried in that order. */
type Tier = 0 | 1 | 2;

/**
 * Where a model stands, from its catalog entry (`undefined`: an unlisted own model, which may be
 * offline) and the requests `running` on it (others' from the catalog, ours as they are now): full
 * when they reach `capacity`; offline when the entry reports no node (the availability rule).
 */
export function tierOf(entry: GatewayModel | undefined, running: number): Tier {
  if (entry === undefined || hasNoNodes(entry)) return 2;
  if (typeof entry.capacity !== 'number') return 0;
  return running >= entry.capacity ? 1 : 0;
}

/**
 * The models in the order a call tries them: those with free capacity first, then the full ones, then the
 * offline or unlisted ones, each group in the order given (a stable sort: the first listed model
 * keeps priority whenever it has free capacity; no load balancing). Within a group, a model that
 * `failsOften` (its breaker's failure share) comes after the others: a free model failing often
 * still before a full one, which would make the call wait.
 */
export function orderListedModels(
  models: readonly string[],
  entryOf: (model: string) => GatewayModel | undefined,
  runningOf: (model: string) => number,
  failsOften: (model: string) => boolean = () => false,
): string[] {
  const rank = (model: string) =>
    tierOf(entryOf(model), runningOf(model)) + (failsOften(model) ? 0.5 : 0);
  const ranks = new Map(models.map((model) => [model, rank(model)]));
  return [...models].sort((a, b) => ranks.get(a)! - ranks.get(b)!);
}

/**
 * The requests running on a listed model now: others' from the snapshot (its `inflight` less ours
 * it may have counted: without that, a snapshot read while our calls ran would make a model look
 * full for the snapshot's whole life), and ours as they are now.
 */
export function runningOn(
  list: readonly GatewayModel[],
  entry: GatewayModel | undefined,
  model: string,
  budgetId: string,
): number {
  return othersInflight(list, entry, model) + modelInflight(budgetId, model);
}
