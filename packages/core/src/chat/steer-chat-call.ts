// docs/gateway-protocol.md §4.7 (a chat call's fallbacks and stall timeouts: plan, spec, route).
/**
 * Loaded by the first chat call with `fallbackModels` (chat-calls.ts): an app that never sets it
 * never loads the plan, the order or the walk. Stall timeouts are the transport's (stall-watch.ts).
 */
import type { CallOptions, StallTimeoutOptions } from '../call/call-options';
import { callEndedError, MAX_TIMEOUT_MS } from '../call/call-scope';
import type { Catalog } from '../catalog/catalog';
import { isGatewayError } from '../errors/errors';
import { FailoverWalk } from '../http/failover-route';
import type { RequestSpec, Transport, Walked } from '../http/transport';
import { type ChatRoute, type ChatRouteHop, singleHopRoute } from '../protocol/chat-route';
import type { ChatRequest } from '../protocol/wire-types';
import { type CandidatePlan, planCandidates, readFallbackModels } from './plan-candidates';

/** A chat call's options that steer it (the rest are passed on as they are). */
type SteeringOptions = CallOptions & StallTimeoutOptions & { fallbackModels?: unknown };

/** A steered chat call: what the transport is given, and how its route is reported. */
export interface SteeredCall {
  /** The call's spec with its stall timeouts and, with `fallbackModels`, its walk (else its body). */
  spec: RequestSpec;
  /** The call's options; with `fallbackModels`, `timeoutMs` is what the plan left of it. */
  options: CallOptions;
  /** The route once answered: `walked` from the answer, `model` the call's, `answeredBy` §4.6's. */
  route(walked: Walked | undefined, model: string, answeredBy: string): ChatRoute;
}

/**
 * Checks a chat call's stall timeouts and `fallbackModels`, and plans the list (plan-candidates.ts)
 * under the call's signal and deadline: the catalog read counts against `timeoutMs`, so the walk
 * gets what is left of it. A refused plan (`no_model_can_serve`) goes through the transport, which
 * reports it to the client's events (skips included) and throws it.
 */
export async function steerChatCall(
  transport: Transport,
  catalog: Catalog,
  request: ChatRequest,
  opts: SteeringOptions,
  base: RequestSpec,
  bodyFor: (model: string) => string,
): Promise<SteeredCall> {
  const spec = base;
  const fallbackModels = readFallbackModels(opts.fallbackModels);
  if (!fallbackModels) {
    return { spec: { ...spec, body: bodyFor(request.model) }, options: opts, route: oneHop };
  }
  const startedAt = performance.now();
  const timeoutMs = Math.min(MAX_TIMEOUT_MS, opts.timeoutMs ?? transport.timeoutMs);
  // The catalog read takes the call's signal and deadline only (not its headers or hooks).
  const lookup = { signal: opts.signal, timeoutMs };
  const inflightOf = (model: string) => transport.inflightTo(model);
  const stream = spec.stream === true;
  let plan: CandidatePlan;
  try {
    plan = await planCandidates(catalog, request, stream, fallbackModels, inflightOf, lookup);
  } catch (error) {
    if (isGatewayError(error) && error.code === 'no_model_can_serve') {
      await transport.open({ ...spec, skipped: error.skipped, refusal: error });
    }
    throw error;
  }
  const spent = Math.floor(performance.now() - startedAt);
  if (spent >= timeoutMs) {
    throw callEndedError(undefined, { timeoutMs, requestedModel: request.model });
  }
  const route = new FailoverWalk({ models: plan.models, bodyFor, order: plan.order });
  return {
    spec: { ...spec, route, skipped: plan.skipped },
    options: spent > 0 ? { ...opts, timeoutMs: timeoutMs - spent } : opts,
    route: (walked, model, answeredBy) => routeOf(plan, walked, model, answeredBy),
  };
}

const oneHop = (_walked: Walked | undefined, model: string, answeredBy: string) =>
  singleHopRoute(model, answeredBy);

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
