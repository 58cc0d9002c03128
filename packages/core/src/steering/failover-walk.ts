// docs/gateway-protocol.md §4.7 (failover at once, then rounds under the retry policy, each model
// asked again only once its own Retry-After has passed), §4.8
// (a call's last answer), §10.5.
import { monotonicNow } from '../call/monotonic-clock';
import { type GatewayError, isGatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import type { NextAttempt, RetryAllowance } from '../http/attempt-policy';
import { isRetryableWithin, nextRetryWait } from '../http/retry-policy';
import type {
  ChatRouteHop,
  DeferredModel,
  FailoverReason,
  SkippedModel,
  StructuredOutputMethod,
} from '../protocol/chat-route';
import type { Usage } from '../protocol/wire-types';
import { failoverReason } from './failover-reason';

/** The models a walk goes over (plan-hops.ts), and how it makes their requests. */
export interface WalkPlan {
  /** Gated and ordered: the first to try first. Never empty. */
  models: readonly string[];
  /** The request body naming `model` (made when the model is first tried). */
  bodyFor(model: string): string;
  /**
   * The models in the order to try them now (by free capacity, stable). The plan is made before the call
   * queues for a slot; the models left are ordered again at each attempt, once its slot is held, so
   * calls that queued together do not all go to the model that had free capacity then.
   */
  order?: (models: readonly string[]) => string[];
  /**
   * With `order`: the list as the caller gave it, and why `order` put a model behind one listed
   * after it. A model passed over so when another is chosen is a `deferred` hop of the route.
   */
  deferral?: {
    requested: readonly string[];
    deferred: (model: string, ahead: string) => DeferredModel | undefined;
  };
  /** A call asking for structured output: how `model` serves the schema (the plan's). */
  methodOf?: (model: string) => StructuredOutputMethod | undefined;
  /**
   * Why a model not tried yet is left out now (its breaker opened since the plan), asked with the
   * models still in the round; `skipped` is told each one left out.
   */
  skip?: (model: string, others: readonly string[]) => SkippedModel | undefined;
  skipped?: (skip: SkippedModel) => void;
  /**
   * Another walk of the same call whose route this one writes too (a hedged call's two runs): the
   * failed hops of both, in the order they happened.
   */
  routeOf?: FailoverWalk;
  /**
   * A hedge's: the models its pick passed over (`spare`), their hops in the route already, told
   * at its attempt as a walk's pick tells its own.
   */
  passedOver?: DeferredModel[] | undefined;
  /**
   * A hedge's walk: one attempt, retried in no round of its own (its failure is the other run's to
   * retry), until its first content decides the race and it takes over the cut run's (`takeOver`).
   */
  oneAttempt?: true;
}

/**
 * The route's hop of a model left for `reason`; one whose answer failed the check says how it
 * served it, and that answer's usage (`spent`) when the gateway reported it.
 */
export function failedHop(
  model: string,
  reason: FailoverReason,
  method: StructuredOutputMethod | undefined,
  spent?: Usage,
): ChatRouteHop {
  const hop: Extract<ChatRouteHop, { outcome: 'failed' }> = { model, outcome: 'failed', reason };
  if (reason === 'invalid_structured_output' && method !== undefined) {
    hop.structured = { method, checked: false };
  }
  if (spent !== undefined) hop.usage = spent;
  return hop;
}

/**
 * The failure an attempt ended with, unless it was cut (`aborted`: the other run of a hedged call
 * answered first, or the caller): a cut attempt was in flight, it did not fail.
 */
function ownFailure(error: GatewayError): GatewayError | undefined {
  return error.code === 'aborted' ? undefined : error;
}

/** The key's own limit, the same for every model (failover-reason.ts moves on from none for it). */
const isKeyLimit = (error: GatewayError) => error.code === 'client_concurrency_exceeded';

/**
 * A hold of `holdMs` on the key's not-before leaves the held request a fair chance of the deadline
 * left (`remainingMs`): at least as much time after it as the hold takes. The unhedged call, never
 * told the key's `Retry-After`, would send at once with all of it; a hold that left the request a
 * sliver would turn its answer into a `timeout` (rv-9hedge F2). Half the deadline left is a bound
 * that needs no guess of how long an answer takes.
 */
function fairHold(holdMs: number, remainingMs: number): boolean {
  return remainingMs - holdMs >= holdMs;
}

/** A hop that failed, with its error (for the message of a call whose every hop failed). */
export interface FailedHop {
  model: string;
  error: GatewayError;
  /**
   * The call ended with `error` while no attempt of it was in flight (waiting to retry `model`, or
   * for a slot after a failover): named with the failures, not counted as an attempt.
   */
  waiting?: true;
  /**
   * A failure that moves to no other model (a 500, the key's 429), retried on `model`: an attempt
   * the message counts, with no hop of its own in the route (the model's next hop tells its end).
   */
  retried?: true;
}

/**
 * How much longer than the first model free a round waits for the others of its round: the
 * gateway's `Retry-After` is whole seconds, and the failures of one round came a few ms apart, so
 * models busy for the same second are free a few ms apart too. Waiting this much more lets them
 * into the same round instead of one round each (each counted against `maxRetries`).
 */
export const ROUND_SLACK_MS = 100;

/**
 * A failover failure of a model, and when it came (its `Retry-After` counts from then); `attempt`,
 * the call's attempt it ended (for the `retry` event of a round retrying it).
 */
interface TimedFailure {
  model: string;
  error: GatewayError;
  at: number;
  attempt?: number | undefined;
}

/**
 * The walk of one steered call over its models. A failure the retry policy names a failover reason
 * (errors/retryable-failure.ts) moves to the next model at once, its slot already given back;
 * other failures follow the retry rules on the same model. When every model of the round has
 * failed, the round is retried like one attempt, while `maxRetries` allows: after the shortest wait
 * among the models the policy would retry (what is left of each one's `Retry-After`, else the
 * backoff), with the models free by then only. A model is never asked before its own `Retry-After`
 * has passed: one still cooling waits for a later round (each round is one retry).
 */
export class FailoverWalk {
  /** The failed hops so far, as the route reports them. */
  readonly hops: ChatRouteHop[];
  /**
   * The failures so far, in order: the failed hops' (in step with `hops`), and those retried on
   * their model (`retried`: an attempt each, no hop).
   */
  readonly failed: FailedHop[];
  /**
   * The last attempt sent while the route has no hop for it: in flight (no `failure`), or failed in
   * a way that moves to no other model (a 500: its retry not sent yet, or none to come).
   */
  #unlisted: { model: string; failure?: GatewayError } | undefined;
  readonly #bodyFor: (model: string) => string;
  readonly #order: ((models: readonly string[]) => string[]) | undefined;
  readonly #deferral: WalkPlan['deferral'];
  /** The models this round reported deferred (once each per round). */
  #deferred = new Set<string>();
  /** `WalkPlan.passedOver`, until the attempt tells them. */
  #passedOverByHedge: DeferredModel[];
  readonly #methodOf: WalkPlan['methodOf'];
  readonly #skip: WalkPlan['skip'];
  readonly #skipped: WalkPlan['skipped'];
  /**
   * The next attempt starts on a model not tried yet (the round's first, or after a failover): it
   * chooses among the untried ones. A retry of the same model (a 500) does not.
   */
  #choose = true;
  /** The failover to report once the next model is chosen (at the next attempt). */
  #leaving:
    | {
        from: string;
        hop: ChatRouteHop;
        reason: FailoverReason;
        waitedMs: number;
        /** Held back to the key's not-before (`#afterKeyFree`): for how long. */
        heldMs?: number;
      }
    | undefined;
  readonly #bodies = new Map<string, string>();
  /**
   * The plan's models, in its order: a round's models are tried in it (then by free capacity).
   * A walk lists the models of failures it adopted after them (`adoptFailures`).
   */
  #listed: readonly string[];
  #round: readonly string[];
  #index = 0;
  /** This round's failover failures, to pick the next round's models and wait. */
  #roundFailures: TimedFailure[] = [];
  /**
   * The models left out of the current round because their `Retry-After` had not passed when it
   * began: weighed again with its failures when it ends.
   */
  #cooling: TimedFailure[] = [];
  /** The retry limits the walk's failures are weighed with (told at each `next`). */
  #limits: RetryAllowance | undefined;
  /** The waits taken so far: the attempt loop takes one for each step of `next` that waits. */
  #waits = 0;
  /**
   * The waits of the call taken before this walk's attempt loop began (a hedge that took over the
   * cut run's walk: the cut run's), added to the loop's count: one `maxRetries` for the call.
   */
  #waitsBefore = 0;
  /** `WalkPlan.oneAttempt`, until the walk takes over the cut run's. */
  #oneAttempt: boolean;
  /**
   * The failures whose retry the walk waits to send (a retry of its model, or a next round's),
   * from `next`'s wait until the attempt after it starts: each asked only once its Retry-After
   * passed, by this walk or by the hedge that cut it (`takeOver`).
   */
  #waitingFor: TimedFailure[] = [];
  /**
   * The failures taken over (`takeOver`) whose retry the cut run was waiting to send: its `retry`
   * event went then, so the next round retrying them continues that retry and tells none again.
   */
  readonly #toldRetries = new Set<TimedFailure>();
  /**
   * When the key's own `Retry-After` (`client_concurrency_exceeded`, one within `maxRetryAfterMs`)
   * passes, as the last one either run of a hedged call was told says: one object shared by the
   * call's two walks, so the run not told it sends nothing on the key before (`#afterKeyFree`).
   */
  readonly #key: { freeAt: number };
  /**
   * The walk waits for a next round it fixed (`#nextRound`), not started yet: failures the other
   * run gives it now (`adoptFailures`) join that round as it walks, once free (`#takeFreed`), as
   * the unhedged walk's round would have had them — not a round after it, one more retry.
   */
  #roundPending = false;
  /** `next` gave no step: the walk ended on its own (it was not cut); nothing is left to take over. */
  #ended = false;
  /** A hedged call's other run: the hedge's walk and the first run's, each the other's. */
  #otherRun: FailoverWalk | undefined;
  /**
   * This run can answer no more: it ended (`runEnded`), or its answer was refused while the other
   * run could still answer (`claimLastAnswer`).
   */
  #spent = false;
  /**
   * When the current model's attempt was sent (its slot held), for `failover.waitedMs`; undefined
   * once it failed, until the next attempt is sent.
   */
  #attemptStartedAt: number | undefined;
  /** The call's number of the current model's attempt (`startAttempt`), when told. */
  #attempt: number | undefined;
  /**
   * A hedged call's race cut this run (`cut`): `lost` with its attempt in flight, its outcome not
   * told yet; `told` when that outcome was told just before the race was decided.
   */
  #cut: 'lost' | 'told' | undefined;

  /**
   * How long the current model's attempt has run (a hedge's `waitedMs` on `from`): 0 between
   * attempts (a failover or a retry waiting for its slot or its wait), none of `from` having run.
   */
  get attemptWaitedMs(): number {
    const started = this.#attemptStartedAt;
    return started === undefined ? 0 : performance.now() - started;
  }

  /** An attempt of the walk is under way (sent, its slot held): not between attempts. */
  get inFlight(): boolean {
    return this.#attemptStartedAt !== undefined;
  }

  constructor(plan: WalkPlan) {
    this.hops = plan.routeOf?.hops ?? [];
    this.failed = plan.routeOf?.failed ?? [];
    this.#round = plan.models;
    // (A hedge's rounds, once it took over, keep the call's order.)
    this.#listed = plan.routeOf === undefined ? plan.models : plan.routeOf.#listed;
    this.#oneAttempt = plan.oneAttempt === true;
    this.#bodyFor = plan.bodyFor;
    this.#order = plan.order;
    this.#deferral = plan.deferral;
    this.#methodOf = plan.methodOf;
    this.#skip = plan.skip;
    this.#skipped = plan.skipped;
    this.#passedOverByHedge = plan.passedOver ?? [];
    this.#key = plan.routeOf === undefined ? { freeAt: 0 } : plan.routeOf.#key;
    if (plan.routeOf) {
      this.#otherRun = plan.routeOf;
      plan.routeOf.#otherRun = this;
    }
  }

  /** The model the next (or current) attempt asks for. */
  get model(): string {
    return this.#round[this.#index]!;
  }

  /**
   * This run has a step after a refusal of the current model's answer: a later model in this
   * round, or a next round retrying one of its failures with the waits taken and the deadline left
   * now (`remainingMs`), under the run's retry limits (`retry`; else those `next` was last told:
   * a run's first answer comes before any, and a failure this run adopted may be retried). It
   * claims nothing: a structured stream asks it before it lets content through (steered-chat.ts),
   * since content that reached the caller binds the call to that answer.
   */
  movesOn(remainingMs: number, retry?: RetryAllowance): boolean {
    this.#takeFreed();
    if (this.#index + 1 < this.#round.length) return true;
    const limits = retry ?? this.#limits;
    return (
      limits !== undefined &&
      this.#retryRound(this.#waits, this.#allowed({ ...limits, remainingMs })) !== undefined
    );
  }

  /** The retry limits this walk may use: none for a hedge's one attempt (`WalkPlan.oneAttempt`). */
  #allowed<L extends RetryAllowance>(limits: L): L {
    return this.#oneAttempt ? { ...limits, maxRetries: 0 } : limits;
  }

  /**
   * Claims the call's last answer for the current model's, as it is checked (the question
   * `structuredOutput.lastAnswer` asks): true when it is the last. Its refusal
   * (`invalid_structured_output`, tried again in no round) ends the walk when `next` would give no
   * step for it — no later model in this round, no next round retrying one of its failures with
   * the waits taken and the deadline left now (`remainingMs`) — and a hedged call's other run can
   * answer no more (never sent, ended, or refused already). A claim made while the other still may
   * answer is refused and spends this run: its refused answer waits for the other's, and of two
   * refused answers the later one is the last.
   */
  claimLastAnswer(remainingMs: number, retry?: RetryAllowance): boolean {
    if (this.movesOn(remainingMs, retry)) return false;
    const other = this.#otherRun;
    if (other === undefined || other.#spent) return true;
    this.#spent = true;
    return false;
  }

  /** The walk's run ended (failed, or cut): a hedged call's other run has the last answer. */
  runEnded(): void {
    this.#spent = true;
  }

  /**
   * A hedged call's race was decided for the other run while this one's attempt was in flight
   * (`lost`: its outcome not told yet, its `lost` hop stands), or its outcome was told just before
   * (a failure that came with the other's first content). Whatever that attempt ends with next is
   * no step: a cut run retries nothing and moves on to nothing (its `retry` would never be sent).
   */
  cut(lost: boolean): void {
    this.#spent = true;
    this.#cut = lost ? 'lost' : 'told';
  }

  /**
   * The model of the next attempt, once its slot is held: the one with the most free capacity now among
   * those not tried in this round; after a failover, its `failover` event, naming that model.
   * The order is taken here, not when the call queued or left a model: calls that queued together
   * must not all go to the model that had free capacity then.
   */
  startAttempt(events?: CallEvents, attempt?: number): string {
    this.#attempt = attempt;
    let deferred = this.#passedOverByHedge;
    this.#passedOverByHedge = [];
    if (this.#choose) {
      this.#choose = false;
      this.#leaveOut(this.#index);
      this.#reorder();
      deferred = deferred.concat(this.#passedOver(this.model, this.#round.slice(this.#index + 1)));
    }
    const leaving = this.#leaving;
    if (leaving) {
      this.#leaving = undefined;
      const { from, hop, reason, waitedMs, heldMs } = leaving;
      const structured = 'structured' in hop ? hop.structured : undefined;
      const usage = 'usage' in hop ? hop.usage : undefined;
      events?.failover(from, this.model, reason, waitedMs, structured, usage, heldMs);
    }
    for (const defer of deferred) events?.deferred(defer);
    this.#waitingFor = [];
    this.#roundPending = false;
    this.#attemptStartedAt = performance.now();
    this.#unlisted = { model: this.model };
    return this.model;
  }

  /**
   * The hop of a run that ended with none for its last attempt (a hedged call's other run, once
   * the race is decided): `lost` for an attempt in flight when it was cut; `ended` with the failure
   * it stopped at when that moves to no other model — a 500 waiting for a retry never sent, or
   * `runError`, the run's own error when it failed outside the walk — as the call's error route
   * gives a run's failure; none when nothing was sent, or the last failure is a `failed` hop
   * already (a retry never sent adds none).
   */
  unlistedHop(runError?: unknown): ChatRouteHop | undefined {
    const last = this.#unlisted;
    if (last === undefined) return undefined;
    // (A run cut in flight lost: what its attempt or run ended with after that is no failure.)
    const own = this.#cut !== 'lost' && isGatewayError(runError) ? ownFailure(runError) : undefined;
    const failure = last.failure ?? own;
    if (failure === undefined) return { model: last.model, outcome: 'lost' };
    return { model: last.model, outcome: 'ended', code: failure.code };
  }

  /**
   * The run's end `end` came while none of its attempts was in flight, nor was it the failure of
   * its last one: the call ended while the run waited (to retry a model, or for a slot after a
   * failover). Such an end is no attempt.
   */
  endedWaiting(end: GatewayError): boolean {
    const last = this.#unlisted;
    return last === undefined || (last.failure !== undefined && last.failure !== end);
  }

  /**
   * The round's models from `from` on whose breaker opened since the plan, left out of the round (a
   * `skipped` hop in the route, told to `skipped`): never the last of the models still in it.
   */
  #leaveOut(from: number): void {
    const skip = this.#skip;
    if (skip === undefined) return;
    const inRound = this.#round.slice(this.#index);
    for (const model of this.#round.slice(from)) {
      const left = skip(model, inRound);
      if (left === undefined) continue;
      inRound.splice(inRound.indexOf(model), 1);
      this.#round = this.#round.filter((other) => other !== model);
      this.hops.push({ model, outcome: 'skipped', reason: left.reason });
      this.#skipped?.(left);
    }
  }

  /** The models not tried yet in this round, ordered by free capacity now (the plan's `order`). */
  #reorder(): void {
    if (!this.#order || this.#round.length - this.#index < 2) return;
    const untried = this.#order(this.#round.slice(this.#index));
    this.#round = [...this.#round.slice(0, this.#index), ...untried];
  }

  /**
   * The models the order put behind `chosen` (the walk's next model, or a hedge's) though listed
   * before it, `left` untried in this round: each a `deferred` hop (once per round, in the list's
   * order, whichever pick passed it over first), so a caller whose first model was put back sees
   * it and why (rv-steer F5, rv-events F1).
   */
  #passedOver(chosen: string, left: readonly string[]): DeferredModel[] {
    const deferral = this.#deferral;
    if (!deferral || left.length === 0) return [];
    const { requested } = deferral;
    const untried = new Set(left);
    const deferred: DeferredModel[] = [];
    for (const model of requested.slice(0, requested.indexOf(chosen))) {
      if (!untried.has(model) || this.#deferred.has(model)) continue;
      const defer = deferral.deferred(model, chosen);
      if (defer === undefined) continue;
      this.#deferred.add(model);
      this.hops.push({ model, outcome: 'deferred', reason: defer.reason });
      deferred.push(defer);
    }
    return deferred;
  }

  /** The request body of the current model. */
  body(): string {
    return this.bodyOf(this.model);
  }

  /** The request body naming `model` (made once). */
  bodyOf(model: string): string {
    let body = this.#bodies.get(model);
    if (body === undefined) {
      body = this.#bodyFor(model);
      this.#bodies.set(model, body);
    }
    return body;
  }

  /**
   * A hedged call's run whose first content decided the race takes over what the run it cut
   * (`other`) had left (`leftWhenCut`): those models join this round right after its current
   * model, each once (one this run tried already is not asked again), so a refused answer of this
   * run moves on to them as the unhedged walk would have. Its failures still to be retried and its
   * waits come too: a next round retries them as the unhedged walk's would, within the call's one
   * `maxRetries` (a hedge's walk, one attempt until now, gets the call's retries). A retry the cut
   * run was waiting to send keeps its failure (asked once its Retry-After passed, in a next round
   * whose wait is the one the cut run never finished). A run that ended on its own, not cut, gives
   * its failures only (`adoptFailures`): every model it had was asked, as the unhedged walk's.
   */
  takeOver(other: FailoverWalk): void {
    if (other === this) return;
    this.#oneAttempt = false;
    const waiting = other.#waitingFor;
    const waits = waiting.length > 0 ? other.#waits - 1 : other.#waits;
    this.#waitsBefore += waits;
    this.#waits += waits;
    other.#roundFailures.push(...waiting);
    for (const failure of waiting) this.#toldRetries.add(failure);
    other.#waitingFor = [];
    const models = other.leftWhenCut().filter((model) => !waiting.some((w) => w.model === model));
    this.adoptFailures(other);
    const added = models.filter(
      (model, at) => !this.#round.includes(model) && models.indexOf(model) === at,
    );
    if (added.length === 0) return;
    const upTo = this.#index + 1;
    this.#round = [...this.#round.slice(0, upTo), ...added, ...this.#round.slice(upTo)];
  }

  /**
   * A hedged call's hedge ended on its own (failed, not cut): its failures (of its round, and those
   * cooling) join this run's, so a next round of this run may retry them as the unhedged walk's
   * would — the spare the hedge took, failed retryably, is in no round of this run otherwise.
   */
  adoptFailures(other: FailoverWalk): void {
    if (other === this) return;
    // (A next round fixed already takes them as it walks, once free: not the round after it.)
    (this.#roundPending ? this.#cooling : this.#roundFailures).push(...other.#roundFailures);
    this.#cooling.push(...other.#cooling);
    const adopted = [...other.#roundFailures, ...other.#cooling].map(({ model }) => model);
    this.#listed = [...this.#listed, ...adopted.filter((model) => !this.#listed.includes(model))];
    other.#roundFailures = [];
    other.#cooling = [];
  }

  /**
   * What a run cut by the other's first content leaves (`takeOver`): its current model — the one it
   * was cut in flight on, or between attempts the one it was about to ask (after a failover, or a
   * retry it was waiting to send) — then the models of its round it had not tried. None when it
   * ended on its own (`next` gave no step): nothing of it was cut.
   */
  leftWhenCut(): string[] {
    return this.#ended ? [] : this.#round.slice(this.#index);
  }

  /**
   * `model` may be asked now by a hedge: this walk is not waiting for its Retry-After (or its
   * backoff) to pass, nor for the key's own Retry-After (`client_concurrency_exceeded`: the same
   * for every model, no hedge may go on the key then).
   */
  askableNow(model: string): boolean {
    const waiting = this.#waitingFor;
    return !waiting.some((failure) => failure.model === model || isKeyLimit(failure.error));
  }

  /**
   * A model for a hedged attempt: the one with the most free capacity now among those this round has not
   * tried yet (those whose breaker opened since left out, and those the walk waits to retry:
   * `askableNow`), taken out of the walk (the first attempt will not go to it); undefined when no other
   * is left (the hedge then asks the same model: the gateway sends it to another copy), or when
   * that one is not `usable` (then none is: the order puts the models with free capacity first).
   * The models listed before it that it was chosen over are `deferred` as a walk's pick defers them
   * (its hops now, its events for the caller to send once the hedge is announced).
   */
  spare(
    usable: (model: string) => boolean = () => true,
  ): { model: string; deferred: DeferredModel[] } | undefined {
    this.#leaveOut(this.#index + 1);
    // (Waiting for a round, its models are its own: each in its Retry-After.)
    const untried = this.#round.slice(this.#index + 1).filter((model) => this.askableNow(model));
    const [model] = this.#order ? this.#order(untried) : untried;
    if (model === undefined || !usable(model)) return undefined;
    this.#round = this.#round.filter((other) => other !== model);
    const left = untried.filter((other) => other !== model);
    return { model, deferred: this.#passedOver(model, left) };
  }

  /**
   * After the attempt on the current model failed with `error` (before any answer reached the
   * caller): the next step. `waits`: the waits taken so far, against `limits.maxRetries`.
   */
  next(
    error: GatewayError,
    waits: number,
    limits: RetryAllowance & { remainingMs: number },
  ): NextAttempt {
    const taken = waits + this.#waitsBefore;
    if (isKeyLimit(error)) this.#keyBusy(error, limits.maxRetryAfterMs);
    if (this.#cut !== undefined) return this.#afterCut(error, taken, limits);
    let step = this.#stepAfter(error, taken, this.#allowed(limits));
    this.#attemptStartedAt = undefined;
    this.#limits = limits;
    this.#ended = step === undefined;
    const retries = step !== undefined && 'waitMs' in step;
    // (Only a hedged call's walks share the key's not-before: an unhedged one waits its own.)
    const held =
      this.#otherRun === undefined ? undefined : this.#afterKeyFree(step, limits.remainingMs);
    if (held !== undefined) {
      // A move to the next model held back is no retry: the attempt loop counts its wait as one,
      // the walk takes it off (one `maxRetries` for the call, as unhedged). Its `failover` says it.
      if (!retries) this.#heldMove(held);
      step = held;
    }
    this.#waits = retries ? taken + 1 : taken;
    return step;
  }

  /**
   * `next` of a run the race cut (`cut`): no step. An attempt `lost` records nothing (the call's
   * route has its `lost` hop, its `response` says `aborted`); one whose failure was told before the
   * race was decided records it as the walk would (its hop), retrying nothing.
   */
  #afterCut(
    error: GatewayError,
    waits: number,
    limits: RetryAllowance & { remainingMs: number },
  ): undefined {
    this.#attemptStartedAt = undefined;
    if (this.#cut === 'told') this.#stepAfter(error, waits, { ...limits, maxRetries: 0 });
    return undefined;
  }

  /** A move to the next model held back (`#afterKeyFree`): no retry; its `failover` says how long. */
  #heldMove(held: NextAttempt): void {
    this.#waitsBefore--;
    if (this.#leaving && held && 'waitMs' in held) this.#leaving.heldMs = held.waitMs;
  }

  /** The key's own `Retry-After`, told to this run: its not-before, shared with the other run. */
  #keyBusy(error: GatewayError, maxRetryAfterMs: number): void {
    // One above `maxRetryAfterMs` is no wait this call would take: it holds nothing back.
    if (error.retryAfterMs === undefined || !isRetryableWithin(error, maxRetryAfterMs)) return;
    this.#key.freeAt = Math.max(this.#key.freeAt, monotonicNow() + error.retryAfterMs);
  }

  /**
   * `step` held back to the key's not-before (`#key`, which either run of a hedged call may have
   * been told), or undefined when it stands as it is: no step (a held back key never turns an end
   * into a retry), one that waits at least as long already, or one the not-before would leave too
   * little of the deadline (`remainingMs`) — less after it than the hold itself (`#fairHold`): the
   * step goes on its own schedule, as the unhedged walk's would, never given up for it. A retry
   * waits until then; a move to the next model (at once) waits too, told by its `failover` event
   * as the attempt starts (no `retry`: it is none).
   */
  #afterKeyFree(step: NextAttempt, remainingMs: number): NextAttempt {
    if (step === undefined) return undefined;
    const keyLeftMs = this.#key.freeAt - monotonicNow();
    if (keyLeftMs <= 0 || !fairHold(keyLeftMs, remainingMs)) return undefined;
    if (!('waitMs' in step)) return { waitMs: keyLeftMs, told: true };
    return keyLeftMs <= step.waitMs ? undefined : { ...step, waitMs: keyLeftMs };
  }

  /** `next`'s step: a retry of the same model, the next model at once, or the next round. */
  #stepAfter(
    error: GatewayError,
    waits: number,
    limits: RetryAllowance & { remainingMs: number },
  ): NextAttempt {
    const reason = failoverReason(error);
    if (reason === undefined) {
      const failure = ownFailure(error);
      if (failure) this.#unlisted = { model: this.model, failure };
      const waitMs = nextRetryWait(error, waits, limits);
      if (waitMs === undefined) {
        // A hedge's one attempt is retried in no round of its own: its failure (a 500, the key's
        // 429) goes to the other run's next round (`adoptFailures`), as the unhedged walk retries it.
        if (failure && this.#oneAttempt) this.#roundFailures.push(this.#timed(failure));
        return undefined;
      }
      if (failure) {
        this.#waitingFor = [this.#timed(failure)];
        this.failed.push({ model: this.model, error: failure, retried: true });
      }
      return { waitMs };
    }
    const from = this.model;
    const hop = failedHop(from, reason, this.#methodOf?.(from), error.usage);
    this.hops.push(hop);
    this.failed.push({ model: from, error });
    this.#unlisted = undefined;
    this.#roundFailures.push(this.#timed(error));
    this.#takeFreed();
    if (this.#index + 1 < this.#round.length) {
      this.#index++;
      const waitedMs = this.attemptWaitedMs;
      this.#leaving = { from, hop, reason, waitedMs };
      this.#choose = true;
      return { now: true };
    }
    return this.#nextRound(waits, limits);
  }

  /** The current model's failure `error`, now, in its attempt. */
  #timed(error: GatewayError): TimedFailure {
    return { model: this.model, error, at: monotonicNow(), attempt: this.#attempt };
  }

  /**
   * The models left cooling when the round began whose `Retry-After` has passed by now join the
   * round's untried ones, in the list's order: a round walks every model free by the time it gets
   * there, not only those free when it began.
   */
  #takeFreed(): void {
    if (this.#cooling.length === 0) return;
    const now = monotonicNow();
    const last = new Map<string, TimedFailure>();
    for (const failure of this.#cooling) last.set(failure.model, failure);
    // A model joins weighed by the retry policy as a round's model is (`#retryRound`): one whose
    // last failure it never retries (a 400, a refused answer — a hedge's adopted while the round
    // was pending) is asked no more, as unhedged; its earlier failures do not count then.
    const maxRetryAfterMs = this.#limits?.maxRetryAfterMs;
    const isFree = ({ model, error, at }: TimedFailure) =>
      last.get(model)!.error === error &&
      isRetryableWithin(error, maxRetryAfterMs) &&
      at + (error.retryAfterMs ?? 0) <= now;
    const freed = this.#cooling.filter(isFree).map(({ model }) => model);
    if (freed.length === 0) return;
    this.#cooling = this.#cooling.filter((failure) => !freed.includes(failure.model));
    const untried = [...this.#round.slice(this.#index + 1), ...freed].sort(
      (a, b) => this.#listed.indexOf(a) - this.#listed.indexOf(b),
    );
    this.#round = [...this.#round.slice(0, this.#index + 1), ...untried];
  }

  /** Every model of the round failed: the ones worth another try, after the shortest wait. */
  #nextRound(waits: number, limits: RetryAllowance & { remainingMs: number }): NextAttempt {
    const retry = this.#retryRound(waits, limits);
    if (retry === undefined) return undefined;
    const { again, cooling, waitMs, failure } = retry;
    const [{ model, attempt }] = again as [TimedFailure];
    const told = again.some((failure) => this.#toldRetries.has(failure));
    this.#toldRetries.clear();
    this.#round = again.map(({ model }) => model);
    this.#waitingFor = again;
    this.#index = 0;
    this.#choose = true;
    this.#deferred.clear();
    this.#roundFailures = [];
    this.#cooling = cooling;
    this.#roundPending = true;
    // (The `retry` event names the failure retried first, not the last one: a refusal, say.)
    const step: NextAttempt = { waitMs, failure, model };
    if (attempt !== undefined) step.failedAttempt = attempt;
    if (told) step.told = true;
    return step;
  }

  /**
   * The next round, or undefined: none. Each model worth another try (its last failure, this
   * round's or one still cooling) is weighed by the retry policy with what is left of its
   * `Retry-After` now (one that no longer fits the deadline is dropped); the round waits the
   * shortest of those waits (up to ROUND_SLACK_MS more, for the models free within it), then takes,
   * in the list's order, the models free by then: those whose `Retry-After` has passed, and those
   * without one (their wait is the backoff, ours to choose). The others wait (`cooling`) and join
   * the round once free while it walks (`#takeFreed`), else a later round.
   */
  #retryRound(
    waits: number,
    limits: RetryAllowance & { remainingMs: number },
  ):
    | { again: TimedFailure[]; cooling: TimedFailure[]; waitMs: number; failure: GatewayError }
    | undefined {
    if (waits >= limits.maxRetries) return undefined;
    const last = new Map<string, TimedFailure>();
    for (const failure of [...this.#cooling, ...this.#roundFailures]) {
      last.set(failure.model, failure);
    }
    const now = monotonicNow();
    const weighed: { failure: TimedFailure; wait: number; paced: boolean }[] = [];
    for (const failure of last.values()) {
      const { isRetryable, retryAfterMs } = failure.error;
      const left =
        retryAfterMs === undefined ? undefined : Math.max(0, failure.at + retryAfterMs - now);
      // Above `maxRetryAfterMs` as the gateway said it, however much of it is left now.
      const within = isRetryableWithin(failure.error, limits.maxRetryAfterMs);
      const wait = within
        ? nextRetryWait({ isRetryable, retryAfterMs: left }, waits, limits)
        : undefined;
      if (wait !== undefined) weighed.push({ failure, wait, paced: left === undefined });
    }
    if (weighed.length === 0) return undefined;
    const first = Math.min(...weighed.map(({ wait }) => wait));
    const soon = (entry: (typeof weighed)[number]) =>
      !entry.paced && entry.wait <= first + ROUND_SLACK_MS;
    const waitMs = Math.max(first, ...weighed.filter(soon).map(({ wait }) => wait));
    const free = (entry: (typeof weighed)[number]) => entry.paced || entry.wait <= waitMs;
    const again = weighed
      .filter(free)
      .map(({ failure }) => failure)
      .sort((a, b) => this.#listed.indexOf(a.model) - this.#listed.indexOf(b.model));
    const cooling = weighed.filter((entry) => !free(entry)).map(({ failure }) => failure);
    return { again, cooling, waitMs, failure: again[0]!.error };
  }
}
