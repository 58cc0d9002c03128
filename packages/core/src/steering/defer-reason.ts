// docs/gateway-protocol.md §4.7 (the order a list is tried, and how a model put back is reported).
import { monotonicNow } from '../call/monotonic-clock';
import type { DeferReason, DeferredModel } from '../protocol/chat-route';
import type { GatewayModel } from '../protocol/wire-types';
import { tierOf } from './order-listed-models';

/** What the order of a list is taken from (plan-hops.ts): a model's entry, requests, failures. */
export interface Standing {
  entryOf: (model: string) => GatewayModel | undefined;
  runningOf: (model: string) => number;
  failsOften?: (model: string) => boolean;
  /** When the catalog snapshot the entries come from was read (monotonic ms), if known. */
  readAt?: number | undefined;
}

/**
 * Why the order put `model` behind `ahead`, listed after it (orderListedModels' ranks: a worse
 * tier, else a failure share in the same tier), with a sentence saying so; undefined when it did
 * not (the ranks changed since the order was taken).
 */
export function deferredModel(
  model: string,
  ahead: string,
  standing: Standing,
): DeferredModel | undefined {
  const { entryOf, runningOf, failsOften, readAt } = standing;
  const entry = entryOf(model);
  const running = runningOf(model);
  const tier = tierOf(entry, running);
  let reason: DeferReason;
  if (tier > tierOf(entryOf(ahead), runningOf(ahead))) {
    reason = tier === 1 ? 'full' : entry === undefined ? 'not_in_catalog' : 'offline';
  } else if (failsOften?.(model) === true) {
    reason = 'fails_often';
  } else {
    return undefined;
  }
  // The others' count is the snapshot's, up to catalogTtlMs old: said as of its read, not as now.
  const age = readAt === undefined ? '' : ` ${Math.round((monotonicNow() - readAt) / 1000)} s ago`;
  const why = {
    full: `was full at the catalog read${age} (${running} running, ours counted now; capacity ${entry?.capacity})`,
    offline: 'has no node online',
    not_in_catalog: 'is an own model the catalog does not list',
    fails_often: 'failed often lately (failureShare)',
  }[reason];
  const detail = `Model "${model}" ${why}: "${ahead}", listed after it, is tried first`;
  return { model, reason, ahead, detail };
}
