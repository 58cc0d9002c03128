// docs/gateway-protocol.md §4.7 (a steered chat call: its plan, its walk, one deadline, its route).
/**
 * The steering room's entry, loaded by the first steered chat call (chat/chat-calls.ts): an app
 * whose calls have no fallback list, stall timeout or hedge never loads the room.
 */
import type { CallOptions } from '../call/call-options';
import { CallScope } from '../call/call-scope';
import type { SilenceClock } from '../call/stall-timer';
import type { Catalog } from '../catalog/catalog';
import { cachedCatalogFor } from '../catalog/resolve-model';
import { type GatewayError, isGatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import type { OpenVia, RequestSpec, Reservation, Transport } from '../http/transport';
import type { ChatRoute, ChatRouteHop, FailedChatRoute } from '../protocol/chat-route';
import type { ModelCapability } from '../protocol/wire-types';
import { type FailedHop, FailoverWalk } from './failover-walk';
import { type HopPlan, planHops } from './plan-hops';
import { betweenChunks } from './stall-watch';
import { type ClientSteering, readSteering, type SteeringOptions } from './steering-options';
import { type FirstContentReader, walkPolicy } from './walk-policy';

/** What a steered chat call is made of (chat-calls.ts gives it). */
export interface SteerInput {
  transport: Transport;
  catalog: Catalog;
  /** The call's request as its own model's (path, accept, stream, body). */
  spec: RequestSpec & { requestedModel: string };
  options: CallOptions & SteeringOptions;
  /** The client's steering options, for what the call leaves out. */
  client: ClientSteering;
  /** What the call needs of a model (`requiredCapabilities`). */
  needs: readonly ModelCapability[];
  /** The request body naming `model`. */
  bodyFor(model: string): string;
  firstContent: FirstContentReader;
  /** A place in the key's queue asked for while the room loaded: the first request takes it. */
  reservation?: Reservation;
}

/** A steered call's answer, the model it was asked of, and how its route is reported. */
export interface SteeredCall<T> {
  answer: T;
  model: string;
  /** The route once answered (`answeredBy`: §4.6's answering model). */
  route(answeredBy: string): ChatRoute;
  /** Streams with `chunkTimeoutMs`: the clock of their silences between pieces of content. */
  silence?: SilenceClock;
}

/**
 * Runs a steered chat call: checks its steering options, plans its models under its one deadline
 * (the catalog read counts against `timeoutMs`), and sends it through `send` with the walk's
 * policy. Every error it ends with carries its route (`GatewayError.route`); when more than one
 * model was tried, the message names each and its failure.
 */
export async function steerChatCall<T>(
  input: SteerInput,
  send: (via: OpenVia) => Promise<T>,
): Promise<SteeredCall<T>> {
  const { transport, spec, options, client } = input;
  const primary = spec.requestedModel;
  const call = readSteering(options, 'call option', primary);
  const scope =
    input.reservation?.scope ??
    new CallScope(options.signal, options.timeoutMs ?? transport.timeoutMs);
  const requested = [primary, ...(call.fallbackModels ?? [])];
  let events: CallEvents | undefined;
  let plan: HopPlan;
  try {
    events = await transport.callEvents(spec);
    plan = await planCall(input, requested, scope, events);
  } catch (cause) {
    const error = scope.ended ? scope.error({ requestedModel: primary }) : cause;
    scope.dispose();
    if (isGatewayError(error)) {
      for (const skip of error.skipped ?? []) events?.skipped(skip);
      withRoute(error, { requested, hops: skippedHops(error.skipped ?? []) }, []);
    }
    events?.failed(error);
    throw error;
  }
  for (const skip of plan.skipped) events?.skipped(skip);
  const walk = new FailoverWalk({ models: plan.models, bodyFor: input.bodyFor, order: plan.order });
  const policy = walkPolicy({
    walk,
    scope,
    budgetId: transport.slots.budgetId,
    retry: transport.retryBudget(options),
    stream: spec.stream === true,
    firstChunkMs: call.firstChunkTimeoutMs ?? client.firstChunkTimeoutMs,
    firstContent: input.firstContent,
  });
  let answer: T;
  try {
    answer = await send({ scope, events, policy, reservation: input.reservation });
  } catch (error) {
    throw failedCall(error, plan, walk);
  }
  const chunkMs = spec.stream ? (call.chunkTimeoutMs ?? client.chunkTimeoutMs) : undefined;
  const model = walk.model;
  return {
    answer,
    model,
    route: (answeredBy) => ({
      requested: plan.requested,
      hops: [...skippedHops(plan.skipped), ...walk.hops, { model, outcome: 'answered' }],
      answeredBy,
    }),
    silence:
      chunkMs === undefined
        ? undefined
        : betweenChunks(chunkMs, { requestedModel: primary, servedModel: model }),
  };
}

/**
 * The plan, its catalog read under the call's signal (the call's deadline aborts it). A read
 * needs a slot of its own: a reservation gives its slot back first (the call keeps its scope).
 */
function planCall(
  input: SteerInput,
  requested: string[],
  scope: CallScope,
  parent: CallEvents | undefined,
): Promise<HopPlan> {
  const { transport, catalog, reservation } = input;
  if (reservation && !cachedCatalogFor(catalog, requested)) transport.release(reservation, true);
  const budgetId = transport.slots.budgetId;
  const plan = { requested, needs: input.needs, budgetId, parent };
  return planHops(catalog, plan, { signal: scope.signal });
}

function skippedHops(skipped: HopPlan['skipped']): ChatRouteHop[] {
  return skipped.map(({ model, reason }) => ({ model, outcome: 'skipped', reason }));
}

/** The error a walk ended with, carrying the route: its skips, and every hop that failed. */
function failedCall(error: unknown, plan: HopPlan, walk: FailoverWalk): unknown {
  if (!isGatewayError(error)) return error;
  const hops = [...skippedHops(plan.skipped), ...walk.hops];
  const failed = [...walk.failed];
  // The failure that ended the call, when the walk did not record it (not a failover reason).
  if (walk.failed.at(-1)?.error !== error) {
    hops.push({ model: walk.model, outcome: 'ended', code: error.code });
    failed.push({ model: walk.model, error });
  }
  return withRoute(error, { requested: plan.requested, hops }, failed);
}

/**
 * Sets `route` on the error (in place, like redaction: it is this call's own error), and when
 * more than one hop failed, a message naming each model and its failure.
 */
function withRoute(error: GatewayError, route: FailedChatRoute, failed: FailedHop[]): GatewayError {
  const self = error as unknown as { route: FailedChatRoute; message: string };
  self.route = route;
  if (failed.length > 1) {
    const each = failed.map(({ model, error: e }) => `"${model}": ${e.code} (${e.message})`);
    self.message = `Every model tried failed (${failed.length} attempts): ${each.join('; ')}`;
  }
  return error;
}
