// docs/gateway-protocol.md §4.7 (a call with `fallbackModels`: planned within its deadline, its route).
import type { CallOptions } from '../call/call-options';
import { callEndedError, MAX_TIMEOUT_MS } from '../call/call-scope';
import type { Catalog } from '../catalog/catalog';
import { isGatewayError } from '../errors/errors';
import type { RouteSpec } from '../http/failover-route';
import type { Transport, Walked } from '../http/transport';
import type { ChatRoute, ChatRouteHop, SkippedModel } from '../protocol/chat-route';
import { ENDPOINTS } from '../protocol/endpoints';
import type { ChatRequest } from '../protocol/wire-types';
import { type CandidatePlan, planCandidates } from './plan-candidates';

/** A planned call: what the transport walks, and the call options left for it. */
export interface PlannedCall {
  plan: CandidatePlan;
  /** For the request spec: the models to walk and the skips to report. */
  spec: { route: RouteSpec; skipped: readonly SkippedModel[] };
  /** The call's options, its `timeoutMs` reduced by the time the plan took (one deadline). */
  options: CallOptions;
}

/**
 * Plans a call with `fallbackModels` (plan-candidates.ts) under the call's signal and deadline:
 * the catalog read counts against `timeoutMs`, so the walk gets what is left of it. A refused
 * plan (`no_model_can_serve`) reports its skips through the client's events, then is thrown.
 */
export async function planFallbackCall(
  transport: Transport,
  catalog: Catalog,
  request: ChatRequest,
  stream: boolean,
  fallbackModels: readonly string[],
  opts: CallOptions | undefined,
  bodyFor: (model: string) => string,
): Promise<PlannedCall> {
  const startedAt = performance.now();
  const timeoutMs = Math.min(MAX_TIMEOUT_MS, opts?.timeoutMs ?? transport.timeoutMs);
  // The catalog read takes the call's signal and deadline only (not its headers or hooks).
  const lookup = { signal: opts?.signal, timeoutMs };
  const inflightOf = (model: string) => transport.inflightTo(model);
  let plan: CandidatePlan;
  try {
    plan = await planCandidates(catalog, request, stream, fallbackModels, inflightOf, lookup);
  } catch (error) {
    if (isGatewayError(error) && error.code === 'no_model_can_serve') {
      const spec = { method: 'POST' as const, path: ENDPOINTS.chat, stream };
      return transport.refuse(
        { ...spec, requestedModel: request.model, skipped: error.skipped },
        error,
      );
    }
    throw error;
  }
  const spent = Math.floor(performance.now() - startedAt);
  if (spent >= timeoutMs)
    throw callEndedError(undefined, { timeoutMs, requestedModel: request.model });
  return {
    plan,
    spec: { route: { models: plan.models, bodyFor }, skipped: plan.skipped },
    options: spent > 0 ? { ...opts, timeoutMs: timeoutMs - spent } : { ...opts },
  };
}

/**
 * The route of a chat call: one hop without `fallbackModels`; with them, the skips, the failed
 * hops of the walk and the model that answered.
 */
export function chatRoute(
  planned: PlannedCall | undefined,
  walked: Walked | undefined,
  model: string,
  answeredBy: string,
): ChatRoute {
  if (!planned) return { requested: [model], hops: [{ model, outcome: 'answered' }], answeredBy };
  const hops: ChatRouteHop[] = planned.plan.skipped.map(({ model: id, reason }) => ({
    model: id,
    outcome: 'skipped',
    reason,
  }));
  if (walked) hops.push(...walked.hops);
  hops.push({ model: walked?.model ?? model, outcome: 'answered' });
  return { requested: planned.plan.requested, hops, answeredBy };
}
