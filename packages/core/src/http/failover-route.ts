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
   * made before the call queues for a slot; the models left are ordered again at each hop, once a
   * slot is held, so calls that queued together do not all go to the model that had room then.
   */
  order?: (models: readonly string[]) => string[];
}

/** What follows a failed attempt: another model at once, a wait, or nothing (the error ends the call). */
export type NextStep =
  | { kind: 'failover'; from: string; to: string; reason: FailoverReason }
  | { kind: 'wait'; delayMs: number }
  | undefined;

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
  /** A round's first hop is still to come: its order is the plan's, made before the call queued. */
  #roundStarts = true;
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
   * The spec of the next attempt, once its slot is held: `spec` asking for the current model, with
   * its body. A round's first hop orders the models by room first: the plan's order was made
   * before the call queued, and calls that queued together must not all go to the model that had
   * room then.
   */
  hop<Spec extends { body?: string | FormData; requestedModel?: string }>(spec: Spec): Spec {
    if (this.#roundStarts) {
      this.#roundStarts = false;
      this.#reorder();
    }
    this.#hopStartedAt = performance.now();
    return { ...spec, body: this.body(), requestedModel: this.model };
  }

  /** Reports a failover (`next` moved on): the `failover` event, with the time spent on `from`. */
  left(step: { from: string; to: string; reason: FailoverReason }, events?: CallEvents): void {
    events?.failover(step.from, step.to, step.reason, performance.now() - this.#hopStartedAt);
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
      this.#reorder();
      return { kind: 'failover', from, to: this.model, reason };
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
    this.#roundStarts = true;
    this.#failures = [];
    return { kind: 'wait', delayMs };
  }
}
