// docs/gateway-protocol.md §4.7 (failover at once, then rounds under the retry policy), §10.5.
import type { GatewayError } from '../errors/errors';
import { failoverReason } from '../errors/retryable-failure';
import type { CallEvents } from '../events/call-events';
import type { ChatRouteHop, FailoverReason } from '../protocol/chat-route';
import { type RetryLimits, retryDelay } from './retry-policy';

/** The models a call walks (`fallbackModels`), planned by chat/plan-candidates.ts. */
export interface RouteSpec {
  /** Gated and ordered: the first to try first. Never empty. */
  models: readonly string[];
  /** The request body naming `model` (made when the model is first tried). */
  bodyFor(model: string): string;
  /**
   * The models in the order to try them now (by room: order-candidates.ts, stable). The plan is
   * made before the call queues for a slot; the models left are ordered again at each hop, once its
   * slot is held, so calls that queued together do not all go to the model that had room then.
   */
  order?: (models: readonly string[]) => string[];
}

/**
 * What follows a failed attempt: another model at once (chosen at the next hop, which reports the
 * failover), a wait, or nothing (the error ends the call).
 */
export type NextStep = { kind: 'failover' } | { kind: 'wait'; delayMs: number } | undefined;

/**
 * The walk of one call over its models. A failure the policy names a failover reason
 * (errors/retryable-failure.ts) moves to the next model at once, its slot already given back;
 * other failures follow the retry rules on the same model. When every model of the round has
 * failed, the round is retried like one attempt: after the shortest wait among the failures the
 * policy would retry, with those models only, while `maxRetries` allows.
 */
export class FailoverWalk {
  /** The failed hops so far (the skips and the answer are added by the chat call). */
  readonly hops: ChatRouteHop[] = [];
  readonly #bodyFor: (model: string) => string;
  readonly #order: ((models: readonly string[]) => string[]) | undefined;
  /**
   * The next hop starts on a model not tried yet (the round's first, or after a failover): it
   * chooses among the untried ones. A retry of the same model (a 500) does not.
   */
  #choose = true;
  /** The failover to report once the next model is chosen (at the next hop). */
  #leaving: { from: string; reason: FailoverReason; waitedMs: number } | undefined;
  readonly #bodies = new Map<string, string>();
  #round: readonly string[];
  #index = 0;
  /** This round's failover failures, to pick the next round's models and wait. */
  #failures: { model: string; error: GatewayError }[] = [];
  /** When the current model's attempt was sent (its slot held), for `failover.waitedMs`. */
  #hopStartedAt = 0;

  constructor(route: RouteSpec) {
    this.#round = route.models;
    this.#bodyFor = route.bodyFor;
    this.#order = route.order;
  }

  /** The model the next attempt asks for. */
  get model(): string {
    return this.#round[this.#index]!;
  }

  /**
   * The spec of the next attempt, once its slot is held: `spec` asking for the model with the most
   * room now among those not tried in this round, with its body; after a failover, its `failover`
   * event, naming that model. The order is taken here, not when the call queued or left a model:
   * calls that queued together must not all go to the model that had room then.
   */
  hop<Spec extends { body?: string | FormData; requestedModel?: string }>(
    spec: Spec,
    events?: CallEvents,
  ): Spec {
    if (this.#choose) {
      this.#choose = false;
      this.#reorder();
    }
    const leaving = this.#leaving;
    if (leaving) {
      this.#leaving = undefined;
      events?.failover(leaving.from, this.model, leaving.reason, leaving.waitedMs);
    }
    this.#hopStartedAt = performance.now();
    return { ...spec, body: this.body(), requestedModel: this.model };
  }

  /** The models not tried yet in this round, ordered by room now (the plan's `order`). */
  #reorder(): void {
    if (!this.#order || this.#round.length - this.#index < 2) return;
    const untried = this.#order(this.#round.slice(this.#index));
    this.#round = [...this.#round.slice(0, this.#index), ...untried];
  }

  /** The request body of the next attempt. */
  body(): string {
    const model = this.model;
    let body = this.#bodies.get(model);
    if (body === undefined) {
      body = this.#bodyFor(model);
      this.#bodies.set(model, body);
    }
    return body;
  }

  /**
   * After the attempt on `model` failed with `error` (before any answer byte): the next step.
   * `retries`: the waits taken so far, against `maxRetries`.
   */
  next(error: GatewayError, retries: number, maxRetries: number, limits: RetryLimits): NextStep {
    const reason = failoverReason(error);
    if (reason === undefined) {
      const delayMs = retries < maxRetries ? retryDelay(error, retries, limits) : undefined;
      return delayMs === undefined ? undefined : { kind: 'wait', delayMs };
    }
    const from = this.model;
    this.hops.push({ model: from, outcome: 'failed', reason });
    this.#failures.push({ model: from, error });
    if (this.#index + 1 < this.#round.length) {
      this.#index++;
      const waitedMs = performance.now() - this.#hopStartedAt;
      this.#leaving = { from, reason, waitedMs };
      this.#choose = true;
      return { kind: 'failover' };
    }
    return retries < maxRetries ? this.#nextRound(retries, limits) : undefined;
  }

  /** Every model of the round failed: the ones worth another try, after the shortest wait. */
  #nextRound(retries: number, limits: RetryLimits): NextStep {
    let delayMs: number | undefined;
    const again: string[] = [];
    for (const { model, error } of this.#failures) {
      const wait = retryDelay(error, retries, limits);
      if (wait === undefined || again.includes(model)) continue;
      again.push(model);
      delayMs = delayMs === undefined ? wait : Math.min(delayMs, wait);
    }
    if (delayMs === undefined) return undefined;
    this.#round = again;
    this.#index = 0;
    this.#choose = true;
    this.#failures = [];
    return { kind: 'wait', delayMs };
  }
}
