// docs/gateway-protocol.md §4.7 (capacity-aware order: room first, then full, then offline).
import type { GatewayModel } from '../protocol/wire-types';

/** Room to take the call now (0), full (1), offline or unlisted (2): tried in that order. */
type Tier = 0 | 1 | 2;

/**
 * Where a model stands, from its catalog entry (`undefined`: an unlisted own model, which may be
 * offline) and the chat requests this process has in flight to it: full when `inflight` plus ours
 * reaches `capacity`; offline when the entry reports no node (`available_nodes: 0`).
 */
export function tierOf(entry: GatewayModel | undefined, ownInflight: number): Tier {
  if (entry === undefined || entry.available_nodes === 0) return 2;
  const { capacity, inflight } = entry;
  if (typeof capacity !== 'number') return 0;
  const running = (typeof inflight === 'number' ? inflight : 0) + ownInflight;
  return running >= capacity ? 1 : 0;
}

/**
 * The models in the order a call tries them: those with room first, then the full ones, then the
 * offline or unlisted ones, each group in the order given (a stable sort: the first listed model
 * keeps priority whenever it has room; no load balancing).
 */
export function orderCandidates(
  models: readonly string[],
  entryOf: (model: string) => GatewayModel | undefined,
  inflightOf: (model: string) => number,
): string[] {
  const tiers = new Map(models.map((model) => [model, tierOf(entryOf(model), inflightOf(model))]));
  return [...models].sort((a, b) => tiers.get(a)! - tiers.get(b)!);
}
