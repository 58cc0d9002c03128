// docs/gateway-protocol.md §4.7 (a steered chat call: its plan, its walk, its hedge, one deadline,
// its route).
/**
 * The steering module's entry, loaded by the first steered chat call (chat/chat-calls.ts): an app
 * whose calls have no fallback list, stall timeout or hedge never loads the steering module.
 */
import { pathScopedId } from '../budget/budget-id';
import type { CallOptions } from '../call/call-options';
import { type CallScope, scopeOf } from '../call/call-scope';
import type { SilenceClock } from '../call/stall-timer';
import { MAX_TIMEOUT_MS } from '../call/timer-limit';
import type { Catalog } from '../catalog/catalog';
import { withFailedRead } from '../catalog/failed-read';
import { type GatewayError, isGatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import type { HedgeSkipReason } from '../events/gateway-events';
import type { AttemptAnswer } from '../http/attempt-policy';
import { closeBody } from '../http/read-bounded-body';
import type { OpenResponse, OpenVia, RequestSpec, Transport } from '../http/transport';
import type { WholeAnswer } from '../http/whole-answer';
import type { StructuredResult } from '../protocol/chat-result-types';
import type {
  ChatRoute,
  ChatRouteHop,
  DeferredModel,
  FailedChatRoute,
  StructuredOutputMethod,
} from '../protocol/chat-route';
import type { ModelCapability } from '../protocol/wire-types';
import { allFailedMessage } from './all-failed-message';
import { CircuitBreakers } from './circuit-breaker';
import { type FailedHop, FailoverWalk } from './failover-walk';
import { earnHedge, refundHedge, spendHedge } from './hedge-allowance';
import { hedgeDelay, recordFirstContent } from './hedge-delay';
import { type Hedge, type Raced, type Run, raceWithHedge } from './hedged-race';
import { keepSentRequest } from './keep-sent-request';
import { type HopPlan, type PlanInput, planHops } from './plan-hops';
import { betweenChunks } from './stall-watch';
import {
  type ClientSteering,
  type ReadSteering,
  readSteering,
  refuseUnsentHedge,
  type SteeringOptions,
} from './steering-options';
import { type FirstContentReader, walkPolicy } from './walk-policy';

/** What a steered chat call is made of (chat-calls.ts gives it). */
export interface SteeredCallInput {
  transport: Transport;
  catalog: Catalog;
  /** The call's request as its own model's (path, accept, stream, body). */
  spec: RequestSpec & { requestedModel: string };
  options: CallOptions & SteeringOptions & { capabilities?: readonly string[] };
  /** The client's steering options, for what the call leaves out. */
  client: ClientSteering;
  /** What the call needs of a model (`requiredCapabilities`). */
  needs: readonly ModelCapability[];
  /** The request body naming `model` (`method`: how it serves the call's schema, if it asks for one). */
  bodyFor(model: string, method?: StructuredOutputMethod): string;
  firstContent: FirstContentReader;
  /** A call asking for structured output: what the walk needs to serve it (steered-chat.ts). */
  structured?: StructuredServing;
  /**
   * A whole answer of a call asking for JSON with no schema (`json_object`), checked in its
   * attempt as `StructuredServing.checkWhole` checks a schema's (steered-chat.ts).
   */
  checkJsonText?: (
    answer: AttemptAnswer,
    model: string,
    ahead: WalkAhead,
    signal: AbortSignal,
  ) => Promise<GatewayError | undefined>;
}

/** A call asking for structured output, as the walk serves it. */
export interface StructuredServing {
  /** The request has tools of its own (a forced tool call would keep them from being called). */
  ownTools: boolean;
  /**
   * A whole (non-streamed) answer of `model`, asked by `method`, checked against the schema inside
   * its attempt: the failure, or undefined with a clean answer left in `answer.response`. A
   * stream's: read on until content reaches the caller; its answer checked when none did.
   * `ahead`: what is left of the walk after this answer. `signal`: the attempt's (its abort
   * cancels a stream's read); `onContent`: told as a stream's read decodes content (its stall clock).
   */
  checkWhole(
    answer: AttemptAnswer,
    model: string,
    method: StructuredOutputMethod,
    ahead: WalkAhead,
    signal: AbortSignal,
    onContent?: () => void,
  ): Promise<GatewayError | undefined>;
  /**
   * The checked value of the whole answer with these headers (`WholeAnswer.headers`); undefined
   * for one handed on unchecked (a step of the caller's tool loop).
   */
  checkedOf(headers: Headers): StructuredResult | undefined;
}

/** What is left of a run's walk after the answer being checked (its `FailoverWalk`). */
export interface WalkAhead {
  /**
   * Asked once the answer is whole: no model is left to move on to — none in the walk, and no
   * other run of a hedged call that may still answer (`FailoverWalk.claimLastAnswer`, which claims
   * it; `structuredOutput.lastAnswer` may hand it on).
   */
  last(): boolean;
  /**
   * A refusal of the answer would leave the run a model to move on to (`FailoverWalk.movesOn`,
   * claiming nothing): a stream must then not let content through before its check. (A hedged
   * call's race was decided by the stream's first content, before this is asked: no hedge is sent
   * after it, the other run is cut.)
   */
  movesOn(): boolean;
}

/** A steered call's answer, the model it was asked of, and how its route is reported. */
export interface SteeredAnswer<T> {
  answer: T;
  model: string;
  /** The route once answered (`answeredBy`: §4.6's answering model). */
  route(answeredBy: string): ChatRoute;
  /** Streams with `chunkTimeoutMs`: the clock of their silences between pieces of content. */
  silence?: SilenceClock;
  /**
   * An error of this call after its answer was handed over (a non-streamed answer's shape, a
   * stream's later failure): the same error, carrying the route, its last hop ended with it.
   */
  failed(error: GatewayError): GatewayError;
  /** A call asking for structured output: how the answering model served the schema. */
  method?: StructuredOutputMethod;
  /**
   * A stream's (with breakers): told once as the stream ends, with its error (undefined: it ended
   * whole). Its outcome is the answering model's, for its breaker (`streamEnded`).
   */
  ended?: (error: GatewayError | undefined) => void;
}

/** A steered call's answer, the model that gave it, and a hedged call's other run. */
interface Answered<T> {
  answer: T;
  model: string;
  /** A hedged call's: which run answered (they may ask the same model). */
  winner?: 'first' | 'hedge';
  /**
   * A hedged call's other run: its model, its walk (what its route lacks), its error if it failed,
   * whether it was still going when this one won (and was aborted: it `lost`).
   */
  other?: { model: string; walk: FailoverWalk; error?: unknown; cut: boolean; lostAt?: number };
}

/**
 * A run of a hedged call: its walk (the hedge's: of one model, once sent), how it failed, whether
 * the race cut it at the other run's first content.
 */
interface HedgeRunState {
  walk?: FailoverWalk;
  error?: unknown;
  cut?: true;
  /** Cut at the other's first content: how many hops the route had then. */
  lostAt?: number;
  /** Cut at the other's first content: when (the race decided then, whatever came after). */
  cutAt?: number;
  /** Its first content decided the race: its `hedge` `won` event was sent then. */
  won?: true;
  /** The hedge's: a `hedge-skipped` event went (one per call, though it may be asked for again). */
  skipTold?: true;
  /**
   * The hedge's: skipped with `no_candidate` between the first run's attempts, and due again
   * after its next request; told only if none is sent by the race's end (then as it was due: the
   * request its delay counted from, and how long that had waited).
   */
  skipDue?: { model: string; waitedMs: number };
  /** The number of its last attempt (`attempt` events). */
  attempt?: number;
  /** It failed: how many hops the route had then (its `ended` hop goes there, not last). */
  endedAt?: number;
  /**
   * It failed: how many failures the walks had recorded then (its own failure, when they did not
   * record it, goes there in the message's order: the order the attempts ended).
   */
  failedAt?: number;
}

/**
 * The model a run cut by the other lost, for the `hedge` `won` event: only one with an attempt in
 * flight (its `lost` hop); a run between attempts (waiting to retry) or failed lost nothing.
 */
function lostModel(
  { walk, error, cut }: { walk?: FailoverWalk; error?: unknown; cut?: boolean },
  model: string,
): string | undefined {
  return cut && walk?.unlistedHop(error)?.outcome === 'lost' ? model : undefined;
}

/** A steered call once planned: what its runs share. */
interface PlannedCall {
  input: SteeredCallInput;
  call: ReadSteering;
  scope: CallScope;
  events: CallEvents | undefined;
  plan: HopPlan;
  walk: FailoverWalk;
  breakers: CircuitBreakers | undefined;
  budgetId: string;
  /** A stream's answer when taken: when its request was sent (`performance.now()`). */
  streamSentAt?: number;
}

/** The call's hedge, else its client's: `false` when neither hedges. */
const hedgeOf = ({ call, input }: PlannedCall) => call.hedge ?? input.client.hedge ?? false;

/**
 * Runs a steered chat call: checks its steering options, plans its models under its one deadline
 * (the catalog read counts against `timeoutMs`), and sends it through `send` with the walk's
 * policy, hedged when it asks for it. Every error it ends with carries its route
 * (`GatewayError.route`); when more than one attempt failed, the message names each and why.
 */
export async function runSteeredCall<T>(
  input: SteeredCallInput,
  send: (via: OpenVia) => Promise<T>,
): Promise<SteeredAnswer<T>> {
  const planned = await readAndPlan(input);
  const { plan, walk, events } = planned;
  const hedge = hedgeOf(planned);
  const first: HedgeRunState = { walk };
  const second: HedgeRunState = {};
  let answered: Answered<T>;
  try {
    answered = hedge
      ? await hedged(planned, send, hedge, { first, second })
      : {
          answer: await send({ scope: planned.scope, events, policy: walkPolicyOf(planned) }),
          model: walk.model,
        };
  } catch (error) {
    planned.breakers?.release();
    const failure = failedCall(error, plan, { first, second }, planned.scope.ended);
    // A hedged call's runs leave its end to it.
    if (hedge) events?.failed(failure);
    throw failure;
  }
  const { answer, model, other } = answered;
  // A stream's answering model keeps its probe until the stream ends (`SteeredAnswer.ended`).
  planned.breakers?.release(input.spec.stream === true ? model : undefined);
  if (hedge) events?.raceWon(model, headersOf(answer, input.spec.stream === true));
  // (A stream's race was told when its first content decided it: `decidedBy`.)
  if (other && !first.won && !second.won)
    events?.hedgeWon(model, answered.winner ?? 'first', lostModel(other, other.model));
  if (hedge && events && !input.spec.stream) {
    // A hedged call's answer read whole: its `done` event, sent once the race is decided (each
    // run leaves its end to the call).
    const { data, text } = answer as WholeAnswer;
    // (Both runs may have passed the check: the `done` event tells the winner's method.)
    const method = plan.methods?.get(model);
    if (method !== undefined)
      events.structuredAnswer({ method, checked: checkedWhole(input, answer) });
    // (Its `done` waits for a cut attempt's end: the answer does not.)
    events.answered(data, text);
  }
  return steeredAnswer(planned, answered);
}

/** The call once answered: its route (each hop, how it served a schema), its silence clock. */
function steeredAnswer<T>(planned: PlannedCall, answered: Answered<T>): SteeredAnswer<T> {
  const { input, call, plan, walk } = planned;
  const { answer, model, other } = answered;
  const stream = input.spec.stream === true;
  const chunkMs = stream ? (call.chunkTimeoutMs ?? input.client.chunkTimeoutMs) : undefined;
  const method = plan.methods?.get(model);
  // The route as the race was decided: the cut run adds nothing after.
  const log = [...walk.hops];
  // (A run cut at the other's first content lost then: before that run's later failures.)
  log.splice(other?.lostAt ?? log.length, 0, ...otherRunHops(other));
  // A stream's answer is checked at its end: its hop says so then (chat/stream). A whole one
  // handed on unchecked (a step of the caller's tool loop) says it was not checked.
  const checked = !stream && checkedWhole(input, answer);
  const structured = method === undefined ? {} : { structured: { method, checked } };
  /** The routes handed out (a stream's): a later failure ends their answered hop too. */
  const given: ChatRoute[] = [];
  /** Each hop's body as sent (the walk's, shared with a hedge's), for `sentRequest`. */
  const bodyOf = (id: string) => walk.bodyOf(id);
  return {
    answer,
    model,
    method,
    ended: stream ? streamEnded(planned, model) : undefined,
    route: (answeredBy) => {
      const hops = hopsOf(plan, log, { model, outcome: 'answered', ...structured });
      const route: ChatRoute = { requested: plan.requested, hops, answeredBy };
      keepSentRequest(route, route, bodyOf);
      given.push(route);
      return route;
    },
    silence:
      chunkMs === undefined
        ? undefined
        : betweenChunks(chunkMs, { requestedModel: input.spec.requestedModel, servedModel: model }),
    failed: (error) => {
      const ended = endedHop(model, method, error);
      // A stream that failed after its content: the route its caller holds tells it too (rv-steer
      // F9). Not the caller's own stop (a break, `cancel()`, its signal: `aborted`): the answer did
      // not fail, its hop stays `answered`, as an unsteered stream's (rv-events F2).
      if (error.code !== 'aborted') {
        for (const route of given) route.hops[route.hops.length - 1] = { ...ended };
      }
      const route = { requested: plan.requested, hops: hopsOf(plan, log, ended) };
      // After failed hops, the message names each, as a whole answer's end does (the caller's
      // own stop is no failure of the model's: its message stays its own).
      const failed =
        error.code === 'aborted' || walk.failed.length === 0
          ? []
          : [...walk.failed, { model, error }];
      return withRoute(keepSentRequest(error, route, bodyOf), route, failed);
    },
  };
}

/** The `ended` hop of an answer that failed once handed on (a stream's, after its content). */
function endedHop(
  model: string,
  method: StructuredOutputMethod | undefined,
  error: GatewayError,
): Extract<ChatRouteHop, { outcome: 'ended' }> {
  const ended: Extract<ChatRouteHop, { outcome: 'ended' }> = {
    model,
    outcome: 'ended',
    code: error.code,
  };
  if (method !== undefined && error.code === 'invalid_structured_output') {
    ended.structured = { method, checked: false };
  }
  // A refused answer's tokens were spent: its hop reports them.
  if (error.usage !== undefined) ended.usage = error.usage;
  return ended;
}

/**
 * A stream's end, told once (a later call is a no-op): its outcome recorded on the answering
 * model's breaker, as a whole answer's is when read — an end that finished an answer, a failure the
 * breaker counts (`isModelFailure`: a stream broken off midway), or one that says nothing of the
 * model (the caller's abort, `break` or cancel, a stall, a stream dropped unread) counted neither
 * way; a probe the call held for it is settled then.
 */
function streamEnded(
  planned: PlannedCall,
  model: string,
): (error: GatewayError | undefined) => void {
  let open = planned.breakers !== undefined;
  return (error) => {
    if (!open) return;
    open = false;
    const sentAt = planned.streamSentAt ?? performance.now();
    planned.breakers?.record(model, error, performance.now() - sentAt);
  };
}

/** Whether a whole answer's value was checked (not one handed on unchecked: a tool step). */
function checkedWhole(input: SteeredCallInput, answer: unknown): boolean {
  return input.structured?.checkedOf((answer as WholeAnswer).headers) !== undefined;
}

/**
 * A hedged call's other run: `lost` when its last attempt was in flight when the answering one
 * won; `ended` when it stopped at a failure that moves to no other model (a 500: its retry never
 * sent); nothing when its last failure is a `failed` hop already (the shared log has it).
 */
function otherRunHops(other: Answered<unknown>['other']): ChatRouteHop[] {
  const hop = other?.walk.unlistedHop(other.error);
  return hop === undefined ? [] : [hop];
}

/** The call's options read, its scope and events made, its models planned (skips reported). */
async function readAndPlan(input: SteeredCallInput): Promise<PlannedCall> {
  const { transport, spec, options, client } = input;
  const primary = spec.requestedModel;
  const call = readSteering(options, 'call option', primary);
  // The call's values over its client's: a hedge the two make unsendable is refused here.
  const timeoutMs = Math.min(MAX_TIMEOUT_MS, options?.timeoutMs ?? transport.timeoutMs);
  const firstChunkTimeoutMs = call.firstChunkTimeoutMs ?? client.firstChunkTimeoutMs;
  const whose = (own: boolean) => (own ? "the call's" : "the client's");
  refuseUnsentHedge(call.hedge ?? client.hedge, firstChunkTimeoutMs, timeoutMs, 'call option', {
    hedge: whose(call.hedge !== undefined),
    firstChunkTimeoutMs: whose(call.firstChunkTimeoutMs !== undefined),
    timeoutMs: whose(options?.timeoutMs !== undefined),
  });
  const methods = call.structuredOutputMethods;
  const scope = scopeOf(options, transport.timeoutMs);
  const requested = [primary, ...(call.fallbackModels ?? [])];
  const budgetId = transport.slots.budgetId;
  let events: CallEvents | undefined;
  let breakers: CircuitBreakers | undefined;
  try {
    events = await transport.callEvents(spec);
    // Breakers are for calls with a list: a call of one model is always sent to it.
    if (call.fallbackModels && client.circuitBreaker) {
      const observedAs = pathScopedId(budgetId, transport.baseURL);
      breakers = new CircuitBreakers(client.circuitBreaker, observedAs, events);
    }
    const plan = await planCall(input, { requested, methods }, scope, events, breakers);
    for (const skip of plan.skipped) events?.skipped(skip);
    const methodOf = (model: string) => plan.methods?.get(model);
    const walk = new FailoverWalk({
      models: plan.models,
      bodyFor: (model) => input.bodyFor(model, methodOf(model)),
      order: plan.order,
      deferral: { requested, deferred: plan.deferred },
      methodOf,
      skip: breakers && ((model, others) => breakers?.skip(model, others)),
      skipped: (skip) => events?.skipped(skip),
    });
    return { input, call, scope, events, plan, walk, breakers, budgetId };
  } catch (cause) {
    const error = scope.ended
      ? withFailedRead(scope.error({ requestedModel: primary }), cause)
      : cause;
    scope.dispose();
    breakers?.release();
    if (isGatewayError(error)) {
      for (const skip of error.skipped ?? []) events?.skipped(skip);
      withRoute(error, { requested, hops: skippedHops(error.skipped ?? []) }, []);
    }
    events?.failed(error);
    throw error;
  }
}

/**
 * The plan, its catalog read one request of the call's: under its signal (the call's deadline
 * aborts it) and its `maxRetries` (the AI SDK's one attempt reads once).
 */
function planCall(
  input: SteeredCallInput,
  asked: { requested: string[]; methods: readonly StructuredOutputMethod[] },
  scope: CallScope,
  parent: CallEvents | undefined,
  breakers: CircuitBreakers | undefined,
): Promise<HopPlan> {
  const { transport, catalog, structured } = input;
  const skip =
    breakers && ((model: string, others: readonly string[]) => breakers.skip(model, others));
  const plan: PlanInput = {
    requested: asked.requested,
    needs: input.needs,
    known: input.options.capabilities,
    budgetId: transport.slots.budgetId,
    parent,
    skip,
    failsOften: breakers && ((model: string) => breakers.failsOften(model)),
  };
  if (structured) plan.structured = { methods: asked.methods, ownTools: structured.ownTools };
  return planHops(catalog, plan, { signal: scope.signal, maxRetries: input.options.maxRetries });
}

/** What one run of the call adds to its policy (a hedged call has two runs; others need none). */
interface WalkRun {
  /** Told when the run's request is sent (a hedged call's first run: the hedge's clock starts). */
  onRequest?: (attempt: number) => void;
  /** The run's walk (a hedge's: its one model); the call's own walk by default. */
  walk?: FailoverWalk;
  /** A hedged call's one count of attempts over both runs. */
  nextAttempt?: () => number;
  /** A hedged call's stream: its first content decides the race (`raceWithHedge`'s `content`). */
  onFirstContent?: () => void;
  /** A hedged call's run: its own scope's signal (the race aborts a cut run's alone). */
  runSignal?: AbortSignal;
}

/** The walk's policy: the transport asks it for each attempt of one run of the call. */
function walkPolicyOf(planned: PlannedCall, run: WalkRun = {}) {
  const { input, call, scope, budgetId, breakers } = planned;
  const { onRequest, walk = planned.walk, nextAttempt, onFirstContent, runSignal } = run;
  const retry = input.transport.retryAllowance(input.options);
  const ahead: WalkAhead = {
    last: () => walk.claimLastAnswer(scope.remainingMs, retry),
    movesOn: () => walk.movesOn(scope.remainingMs, retry),
  };
  const stream = input.spec.stream === true;
  return walkPolicy({
    walk,
    scope,
    runSignal,
    budgetId,
    retry,
    stream,
    firstChunkMs: call.firstChunkTimeoutMs ?? input.client.firstChunkTimeoutMs,
    chunkMs: stream ? (call.chunkTimeoutMs ?? input.client.chunkTimeoutMs) : undefined,
    firstContent: input.firstContent,
    checkWhole: checkWholeOf(planned, stream, ahead),
    onRequest,
    nextAttempt,
    onFirstContent,
    onOutcome: (model, failure, ms) => {
      if (failure === undefined) recordFirstContent(budgetId, model, stream, ms);
      // A stream's answer may still fail after its first content: its breaker is told at its end.
      if (failure === undefined && stream) planned.streamSentAt = performance.now() - ms;
      else breakers?.record(model, failure, ms);
    },
  });
}

/**
 * A call asking for structured output: each attempt's answer (a stream's, when nothing of it
 * reached the caller before its end) checked while the attempt holds its slot.
 */
function checkWholeOf(planned: PlannedCall, stream: boolean, ahead: WalkAhead) {
  const { input, plan, events } = planned;
  const { structured } = input;
  const methods = plan.methods;
  const { checkJsonText } = input;
  if (checkJsonText !== undefined && !stream) {
    return (answer: AttemptAnswer, model: string, signal: AbortSignal) =>
      checkJsonText(answer, model, ahead, signal);
  }
  if (structured === undefined || methods === undefined) return undefined;
  return async (
    answer: AttemptAnswer,
    model: string,
    signal: AbortSignal,
    onContent?: () => void,
  ) => {
    const method = methods.get(model)!;
    const failure = await structured.checkWhole(answer, model, method, ahead, signal, onContent);
    // (A stream's `done` event tells its check at its end.)
    if (failure === undefined && !stream) {
      const checked = structured.checkedOf(answer.response.headers) !== undefined;
      events?.structuredAnswer({ method, checked });
    }
    return failure;
  };
}

/** A hedged call's two runs: the first (the call's walk), and the hedge once sent. */
interface HedgeRuns {
  first: HedgeRunState;
  second: HedgeRunState;
}

/**
 * A hedged call: the walk as its first run, and a second attempt once the first has no content
 * `afterMs` after its request (`'auto'`: the model's running p95), into a free slot only and
 * within the hedge allowance (`maxExtra`), on the model with the most free capacity the walk has
 * not tried (or the same model). The first to deliver content wins; the other is aborted at once.
 * A structured stream is held on past that content to its check (and may fail over in its run).
 */
async function hedged<T>(
  planned: PlannedCall,
  send: (via: OpenVia) => Promise<T>,
  hedge: Exclude<ReadSteering['hedge'], false | undefined>,
  runs: HedgeRuns,
): Promise<Answered<T>> {
  const { input, walk, scope, events, budgetId } = planned;
  const { first, second } = runs;
  const stream = input.spec.stream === true;
  earnHedge(budgetId, hedge.maxExtra);
  events?.raceBegins();
  const delayMs = hedgeDelayOf(planned, hedge, stream);
  let firstSentAt = 0;
  /** The first run's request the hedge's delay counts from (`race.sent` started it). */
  let clockFrom = { model: walk.model, at: 0 };
  // The runs share the call's events: their attempts are numbered from one count.
  let attempts = 0;
  const nextAttempt = () => ++attempts;
  const decided = decidedBy(runs, events, (name) => race.content(name));
  const race = raceWithHedge<T>({
    scope,
    events,
    delayMs,
    first: (via) =>
      send({
        ...via,
        policy: walkPolicyOf(planned, {
          runSignal: via.scope?.signal,
          onRequest: sentFirst,
          nextAttempt,
          onFirstContent: () => decided('first'),
        }),
      }).catch((error) => {
        throw runFailed(first, walk, error, stream, events);
      }),
    hedge: (open) =>
      hedgeRun(planned, send, {
        nextAttempt,
        second,
        open,
        decided,
        again: () => race.again(),
        clock: () => clockFrom,
      }),
    discard: stream ? discardStream : () => {},
    endsCall: endedByPage(runs, events, stream),
  });
  function sentFirst(attempt: number): void {
    first.attempt = attempt;
    firstSentAt = performance.now();
    if (race.sent()) clockFrom = { model: walk.model, at: firstSentAt };
  }
  try {
    return hedgeAnswered(planned, await race.result, runs, firstSentAt);
  } finally {
    tellSkipDue(second, events);
  }
}

/**
 * A hedged call's run failed (`error`, returned), its walk `own`: its end recorded (where it goes
 * among the route's hops and the message's failures), its walk spent. When its last attempt's 2xx
 * answer failed as it was read whole (a body cut mid-JSON: `invalid_response`), after its slot was
 * given back, that attempt's `response` is told now with its own failure — the race leaves the
 * call's end to the call, and an unhedged call's read tells it as it fails too. A stream's answer
 * tells its own.
 */
function runFailed(
  run: HedgeRunState,
  own: FailoverWalk,
  error: unknown,
  stream: boolean,
  events: CallEvents | undefined,
): unknown {
  run.error = error;
  run.endedAt = own.hops.length;
  run.failedAt = own.failed.length;
  own.runEnded();
  if (!stream && run.attempt !== undefined) events?.answerFailed(run.attempt, error);
  return error;
}

/** A hedge skipped while due again (`HedgeRunState.skipDue`), none sent since: told at the end. */
function tellSkipDue(second: HedgeRunState, events: CallEvents | undefined): void {
  const due = second.skipDue;
  second.skipDue = undefined;
  if (due === undefined || second.skipTold) return;
  second.skipTold = true;
  events?.hedgeSkipped(due.model, 'no_candidate', due.waitedMs);
}

/** A hedged call's answer, from its race's end: the winner's model, and the other run's end. */
function hedgeAnswered<T>(
  { walk, budgetId, input }: PlannedCall,
  { answer, winner, hedgeModel, otherCut }: Raced<T>,
  { first, second }: HedgeRuns,
  firstSentAt: number,
): Answered<T> {
  if (hedgeModel === undefined) return { answer, model: walk.model };
  if (winner === 'first') {
    const { walk: own, error, lostAt } = second;
    const other = { model: hedgeModel, walk: own!, error, cut: otherCut, lostAt };
    return { answer, model: walk.model, winner, other };
  }
  // The slow first attempt, cut, took at least this long: without it 'auto' would learn only the
  // fast answers and hedge ever earlier. Counted to the cut, not to the answer: a hedge held past
  // its first content may fail over to the models it took over, the cut one again among them.
  const cutAt = first.cutAt ?? performance.now();
  const stream = input.spec.stream === true;
  if (otherCut) recordFirstContent(budgetId, walk.model, stream, cutAt - firstSentAt);
  return {
    answer,
    // (The hedge's run may have moved on from its model: to what the first run had left.)
    model: second.walk!.model,
    winner,
    other: { model: walk.model, walk, error: first.error, cut: otherCut, lostAt: first.lostAt },
  };
}

/** The hedge's wait ('auto': under the first attempt's limit, its stall or the deadline left). */
function hedgeDelayOf(
  { input, call, scope, budgetId, plan }: PlannedCall,
  hedge: Exclude<ReadSteering['hedge'], false | undefined>,
  stream: boolean,
): number {
  const stallMs = call.firstChunkTimeoutMs ?? input.client.firstChunkTimeoutMs;
  const limitMs = Math.min(stallMs ?? Number.POSITIVE_INFINITY, scope.remainingMs);
  return hedgeDelay(hedge.afterMs, budgetId, plan.models[0]!, stream, limitMs);
}

/**
 * What a run's first content does to a hedged call's race (`content`: the race's): when it decided
 * it, the other run is cut, and it can answer no more (the winner's answer is then the last). With
 * a hedge sent, the race's `hedge` `won` event goes now, naming this run's model: what its answer
 * does later (a held one failing its check, failing over) follows it.
 */
function decidedBy(
  runs: HedgeRuns,
  events: CallEvents | undefined,
  content: (name: 'first' | 'hedge') => boolean,
): (name: 'first' | 'hedge') => void {
  return (name) => {
    if (!content(name)) return;
    const [own, other] = name === 'first' ? [runs.first, runs.second] : [runs.second, runs.first];
    other.cut = true;
    other.lostAt = runs.first.walk!.hops.length;
    other.cutAt = performance.now();
    other.walk?.runEnded();
    if (runs.second.walk === undefined) return;
    own.won = true;
    events?.hedgeWon(own.walk!.model, name, cutInFlight(other, events));
    // A held answer refused by its check moves on to what the cut run had left (its model cut in
    // flight, a spare the hedge took), as the unhedged call's walk would.
    own.walk!.takeOver(other.walk!);
  };
}

/**
 * A hedged call's run failure that ends the call at once (`HedgeRace.endsCall`): an answer that is
 * no stream (an HTML page, JSON reporting no failure, text with no event-stream line:
 * `invalid_response`, thrown as its first bytes were read, never a step of the walk), or a whole
 * answer handed on unread that is no JSON begun (an HTML page: `isPageBody`), is the gateway's or
 * a proxy's page, not the model's — it ends the unhedged call, and the other run's answer would not
 * be the call's. A whole answer read in its attempt (text, JSON cut mid-way) is a step of the walk,
 * failed over from as a 502 is by the unhedged call: the other run may still answer. That run,
 * still going, is cut as a stream's first content cuts it (its `lost` hop, its attempt `aborted`);
 * a hedge not sent yet never is.
 */
function endedByPage(
  runs: HedgeRuns,
  events: CallEvents | undefined,
  stream: boolean,
): (name: 'first' | 'hedge', error: unknown) => boolean {
  return (name, error) => {
    const [own, other] = name === 'first' ? [runs.first, runs.second] : [runs.second, runs.first];
    if (own.cut || !isGatewayError(error) || error.code !== 'invalid_response') return false;
    // (One the walk recorded was a step of it, a failover — a whole answer read in its attempt, a
    // text page too, as a 502: the run ended, not the call; the other run may still answer.)
    if (runs.first.walk!.failed.some((hop) => hop.error === error)) return false;
    if (!stream && !isPageBody(error.body)) return false;
    if (other.walk === undefined || other.cut || other.error !== undefined) return true;
    other.cut = true;
    other.lostAt = runs.first.walk!.hops.length;
    other.walk.runEnded();
    cutInFlight(other, events);
    return true;
  };
}

/**
 * Whether a whole 2xx answer that is not JSON (its kept `body`) is a page: text that does not begin
 * as JSON does (`{`, `[`). A body that does, cut short, is an answer cut mid-JSON; none kept, unknown.
 */
function isPageBody(body: string | undefined): boolean {
  return body !== undefined && /^\s*[^\s[{]/.test(body);
}

/**
 * The run a stream's first content cut (`run`, its walk told): the model it `lost`, when its
 * attempt was in flight and its outcome not told yet — that outcome, coming after, is no failure
 * of the call (its `response` says `aborted`, no hop, no `retry`). One told just before (a failure
 * that came with the other's content) is its hop, and lost nothing; either way it steps no further.
 */
function cutInFlight(run: HedgeRunState, events: CallEvents | undefined): string | undefined {
  const walk = run.walk!;
  const model = lostModel(run, walk.model);
  const lost =
    model !== undefined &&
    (events === undefined || run.attempt === undefined || events.lostAttempt(run.attempt));
  walk.cut(lost);
  return lost ? model : undefined;
}

/** What `hedgeRun` is given by the race: its count of attempts, its state, its open question. */
interface HedgeRunInput {
  nextAttempt: () => number;
  second: HedgeRunState;
  open: () => boolean;
  decided: (name: 'hedge') => void;
  again: () => void;
  clock: () => { model: string; at: number };
}

/**
 * The hedge, when one may be sent now: a hedge spent, a free slot, a model with free capacity; else
 * undefined, with a `hedge-skipped` event saying which was missing.
 */
async function hedgeRun<T>(
  planned: PlannedCall,
  send: (via: OpenVia) => Promise<T>,
  run: HedgeRunInput,
): Promise<Hedge<T> | undefined> {
  const { input, walk, scope, events, budgetId, plan } = planned;
  const { second, open } = run;
  const skipped = skippedHedge(planned, second, run);
  const hedge = hedgeOf(planned);
  // (Given back within the bucket's size at this call's `maxExtra`.)
  const refund = () => refundHedge(budgetId, hedge ? hedge.maxExtra : 0);
  if (!spendHedge(budgetId)) return skipped('cap');
  const slot = await input.transport.slots.acquire(scope, { ifFree: true });
  // The race was decided while the slot was asked for (a shared budget answers later): no hedge
  // is sent, none reported, and its share of the allowance is given back.
  if (!open()) {
    slot?.release();
    refund();
    return undefined;
  }
  if (slot === undefined) {
    refund();
    return skipped('no_free_slot');
  }
  const from = walk.model;
  const spare = walk.spare(plan.hasCapacity);
  // (Not the model the walk waits to retry, nor any while the key's own Retry-After runs.)
  const model =
    spare?.model ?? (plan.hasCapacity(from) && walk.askableNow(from) ? from : undefined);
  if (model === undefined) {
    slot.release();
    refund();
    return skipped('no_candidate');
  }
  // (A skip due to be told is not: the hedge went.)
  second.skipDue = undefined;
  events?.hedgeSent(from, model, walk.attemptWaitedMs);
  const own = hedgeWalk(planned, model, spare?.deferred);
  second.walk = own;
  return { model, slot, run: hedgeSend(planned, send, own, run) };
}

/** The hedge's run: one attempt on its model (`own`), counted with the first run's attempts. */
function hedgeSend<T>(
  planned: PlannedCall,
  send: (via: OpenVia) => Promise<T>,
  own: FailoverWalk,
  { nextAttempt, second, decided }: HedgeRunInput,
): Run<T> {
  const { input, walk, events } = planned;
  const policy = {
    walk: own,
    nextAttempt,
    onFirstContent: () => decided('hedge'),
    onRequest: (attempt: number) => {
      second.attempt = attempt;
    },
  };
  return (via) =>
    send({
      ...via,
      policy: walkPolicyOf(planned, { ...policy, runSignal: via.scope?.signal }),
    }).catch((error) => {
      const failed = runFailed(second, own, error, input.spec.stream === true, events);
      // Its failure may be retried by the first run's next round, as the unhedged walk would.
      walk.adoptFailures(own);
      throw failed;
    });
}

/**
 * A hedge not sent for `reason`, told by a `hedge-skipped` event (once per call). With no candidate
 * while the first run waits between its attempts (every model in its Retry-After or backoff), it
 * is asked for again (`again`) `afterMs` after the run's next request: the one that may be slow.
 * That skip is told only when no hedge follows (`skipDue`, at the race's end), naming the request
 * the delay counted from (`clock`) and its wait: there is no slow attempt in flight to measure.
 */
function skippedHedge(
  { walk, events }: PlannedCall,
  second: HedgeRunState,
  rearm: { again: () => void; clock: () => { model: string; at: number } },
): (reason: HedgeSkipReason) => undefined {
  return (reason) => {
    if (reason === 'no_candidate' && !walk.inFlight) {
      rearm.again();
      const { model, at } = rearm.clock();
      if (!second.skipTold) second.skipDue = { model, waitedMs: performance.now() - at };
      return undefined;
    }
    second.skipDue = undefined;
    // (`waitedMs`: measured on the slow attempt, the walk's current one, not the configured delay.)
    if (!second.skipTold) events?.hedgeSkipped(walk.model, reason, walk.attemptWaitedMs);
    second.skipTold = true;
    return undefined;
  };
}

/**
 * The hedge's walk: one attempt on its model, no retries, no failover (the first run walks on). Its
 * failed hop goes to the call's route, among the first run's, in the order they happened. The
 * models it takes over when its first content cut the first run are later hops of the call: each
 * read against its breaker again and ordered by free capacity then, as the first run's walk does.
 */
function hedgeWalk(
  { walk, plan, breakers, events }: PlannedCall,
  model: string,
  passedOver: DeferredModel[] | undefined,
): FailoverWalk {
  return new FailoverWalk({
    models: [model],
    bodyFor: (id) => walk.bodyOf(id),
    order: plan.order,
    methodOf: (id) => plan.methods?.get(id),
    skip: breakers && ((id, others) => breakers.skip(id, others)),
    skipped: (skip) => events?.skipped(skip),
    routeOf: walk,
    passedOver,
    oneAttempt: true,
  });
}

/** A route's hops: the plan's skips, the walk's failed hops (`log`), then `last`. */
function hopsOf(
  plan: HopPlan,
  log: readonly ChatRouteHop[],
  ...last: ChatRouteHop[]
): ChatRouteHop[] {
  return [...skippedHops(plan.skipped), ...log, ...last];
}

function skippedHops(skipped: HopPlan['skipped']): ChatRouteHop[] {
  return skipped.map(({ model, reason }) => ({ model, outcome: 'skipped', reason }));
}

/**
 * The error a walk ended with, carrying the route: its skips, and every hop that failed, a hedged
 * call's of both runs, in the order the attempts ended (a run's own failure too, when it is no
 * failover: an `ended` hop), except the hop of the error that ends the call: always the last,
 * whichever run ended later — the first run's failure, or the hedge's when its first content
 * decided the race and it failed after (a run cut then is its `lost` hop, no failure). Its message
 * names the failures in that same order, the one that ends the call last (its model's sample). A
 * call that ended during a wait ends its route with its error's hop too; its message does not count
 * that as an attempt. A call that its own abort or deadline ended (`callEnded`) before any attempt
 * failed keeps that end's message (`The call was aborted`), hedged or not: its runs' ends are in
 * the route, but no model failed.
 */
function failedCall(error: unknown, plan: HopPlan, runs: HedgeRuns, callEnded: boolean): unknown {
  if (!isGatewayError(error)) return error;
  const { first, second } = runs;
  const walk = first.walk!;
  const noneFailed = callEnded && walk.failed.length === 0;
  const recorded = new Set(walk.failed.map((hop) => hop.error));
  const ends: HedgeRunState[] = [second, { ...first, error: first.error ?? error }];
  /** The runs' hops and failures the walk did not record, each at its place among those it did. */
  const hopsAdded: Placed<ChatRouteHop>[] = [];
  const failedAdded: Placed<FailedHop>[] = [];
  // The hop of the error that ends the call: the route's last, whichever run's end came later.
  let last = failedHopOf(walk, error);
  for (const { walk: run, error: end, cut, lostAt, endedAt, failedAt } of ends) {
    const lost = cut && run?.unlistedHop();
    // (Among the hops at the place it was cut: before the later failures of the run that cut it.)
    if (lost) hopsAdded.push({ at: lostAt!, item: lost });
    // A run's last failure, when the walk did not record it (not a failover reason).
    if (cut || !run || !isGatewayError(end) || recorded.has(end)) continue;
    const usage = end.usage === undefined ? {} : { usage: end.usage };
    const hop: ChatRouteHop = { model: run.model, outcome: 'ended', code: end.code, ...usage };
    // (Where it happened: among the hops the route had then, before the later ones.)
    hopsAdded.push({ at: endedAt ?? walk.hops.length, item: hop });
    if (end === error) last = hop;
    // The call ended while the run waited (to retry, or for a slot after a failover): every
    // attempt of the run is counted already, and its end is no attempt.
    const waiting = run.endedWaiting(end) && walk.failed.length + failedAdded.length > 0;
    const item = waiting
      ? { model: run.model, error: end, waiting }
      : { model: run.model, error: end };
    failedAdded.push({ at: failedAt ?? walk.failed.length, item });
  }
  const hops = hopsOf(
    plan,
    lastOf(placed(walk.hops, hopsAdded), (hop) => hop === last),
  );
  const failed = lastOf(placed(walk.failed, failedAdded), (hop) => hop.error === error);
  const route = { requested: plan.requested, hops };
  keepSentRequest(error, route, (id) => walk.bodyOf(id));
  return withRoute(error, route, noneFailed ? [] : failed);
}

/** An item to place among a list's: after the first `at` of them. */
interface Placed<T> {
  at: number;
  item: T;
}

/** `list` with each of `added` after the first `at` of its items (those of one place in order). */
function placed<T>(list: readonly T[], added: readonly Placed<T>[]): T[] {
  const out: T[] = [];
  for (let i = 0; i <= list.length; i++) {
    for (const { at, item } of added) if (Math.min(at, list.length) === i) out.push(item);
    if (i < list.length) out.push(list[i]!);
  }
  return out;
}

/** `list` with its item that `is` (the call's end) moved last. */
function lastOf<T>(list: T[], is: (item: T) => boolean): T[] {
  const at = list.findIndex(is);
  if (at >= 0) list.push(...list.splice(at, 1));
  return list;
}

/** The `failed` hop the walk recorded for `error` (its failures and their hops go in step). */
function failedHopOf(walk: FailoverWalk, error: unknown): ChatRouteHop | undefined {
  // (A failure retried on its model has no hop: it is not counted.)
  const nth = walk.failed.filter((hop) => !hop.retried).findIndex((hop) => hop.error === error);
  return nth < 0 ? undefined : walk.hops.filter((hop) => hop.outcome === 'failed')[nth];
}

/**
 * Sets `route` on the error (in place, like redaction: it is this call's own error), and when
 * more than one attempt failed or a model was skipped, a bounded message naming each model and
 * its failures (all-failed-message.ts).
 */
function withRoute(error: GatewayError, route: FailedChatRoute, failed: FailedHop[]): GatewayError {
  const self = error as unknown as { route: FailedChatRoute; message: string };
  self.route = route;
  self.message = allFailedMessage(failed, route.hops) ?? error.message;
  return error;
}

/** The headers of a hedged call's winning answer (a stream's, or one read whole). */
function headersOf(answer: unknown, stream: boolean): Headers | undefined {
  return stream ? (answer as OpenResponse).response?.headers : (answer as WholeAnswer).headers;
}

/** A stream opened for nothing (a hedged call's loser that answered late): its slot given back. */
function discardStream(answer: unknown): void {
  const open = answer as OpenResponse;
  closeBody(open.reader ?? open.response.body);
  open.release(true);
  open.scope.dispose();
}
