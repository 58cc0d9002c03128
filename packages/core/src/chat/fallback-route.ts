// docs/gateway-protocol.md §4.7 (a call with `fallbackModels`: planned within its deadline, its route).
/**
 * Loaded by the first chat call with `fallbackModels` (chat-calls.ts): an app that never sets it
 * never loads the plan, the order or the walk.
 */
import type { CallOptions } from '../call/call-options';
import { callEndedError, MAX_TIMEOUT_MS } from '../call/call-scope';
import type { Catalog } from '../catalog/catalog';
import { isGatewayError } from '../errors/errors';
import { FailoverWalk } from '../http/failover-route';
import type { Transport, Walked } from '../http/transport';
import type { ChatRoute, ChatRouteHop, SkippedModel } from '../protocol/chat-route';
import { ENDPOINTS } from '../protocol/endpoints';
import type { ChatRequest } from '../protocol/wire-types';
import { type CandidatePlan, planCandidates, readFallbackModels } from './plan-candidates';

/** A planned call: what the transport walks, and the call options left for it. */
export interface PlannedCall {
  plan: CandidatePlan;
  /** For the request spec: the walk over the models and the skips to report. */
  spec: { route: FailoverWalk; skipped: readonly SkippedModel[] };
  /** The call's options, its `timeoutMs` reduced by the time the plan took (one deadline). */
  options: CallOptions;
  /** The call's route once answered: `walked` from the answer, `model` the call's, `answeredBy` §4.6's. */
  route(walked: Walked | undefined, model: string, answeredBy: string): ChatRoute;
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
  opts: (CallOptions & { fallbackModels?: unknown }) | undefined,
  bodyFor: (model: string) => string,
): Promise<PlannedCall | undefined> {
  const fallbackModels = readFallbackModels(opts?.fallbackModels);
  if (!fallbackModels) return undefined;
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
      // Through the transport, which reports it to the client's events and throws it.
      const spec = { method: 'POST' as const, path: ENDPOINTS.chat, stream, refusal: error };
      await transport.open({ ...spec, requestedModel: request.model, skipped: error.skipped });
    }
    throw error;
  }
  const spent = Math.floor(performance.now() - startedAt);
  if (spent >= timeoutMs)
    throw callEndedError(undefined, { timeoutMs, requestedModel: request.model });
  return {
    plan,
    route: (walked, model, answeredBy) => routeOf(plan, walked, model, answeredBy),
    spec: { route: new FailoverWalk({ models: plan.models, bodyFor }), skipped: plan.skipped },
    options: spent > 0 ? { ...opts, timeoutMs: timeoutMs - spent } : { ...opts },
  };
}

/** The route of a planned call: its skips, the failed hops of its walk and the model that answered. */
function routeOf(
  plan: CandidatePlan,
  walked: Walked | undefined,
  model: string,
  answeredBy: string,
): ChatRoute {
  const hops: ChatRouteHop[] = plan.skipped.map(({ model: id, reason }) => ({
    model: id,
    outcome: 'skipped',
    reason,
  }));
  if (walked) hops.push(...walked.hops);
  hops.push({ model: walked?.model ?? model, outcome: 'answered' });
  return { requested: plan.requested, hops, answeredBy };
}
