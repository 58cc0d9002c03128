// docs/gateway-protocol.md §2.5 (a slot per attempt, given back before a retry's sleep), §10.5 (the
// retry policy: what follows a failed attempt, and when).
import { type CallScope, sleep } from '../call/call-scope';
import { GatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import {
  type AnswerStatus,
  type AttemptAnswer,
  type AttemptPolicy,
  type AttemptRequest,
  type NextAttempt,
  ownAbort,
} from './attempt-policy';
import { closeBody } from './read-bounded-body';
import { wholeAnswerChecked } from './reported-in-answer';
import type { RequestSpec, Slot, StreamHeadersHook } from './request-types';
import { type SendConfig, type Sending, sendOnce } from './send-once';
import type { SlotAsk, SlotSource } from './slot-source';

/** One call's attempts: its request, its deadline, its policy, where its slots come from. */
export interface AttemptRun {
  spec: RequestSpec;
  headers: Headers | Record<string, string>;
  scope: CallScope;
  events: CallEvents | undefined;
  policy: AttemptPolicy;
  slots: SlotSource;
  /** A slot the caller already holds: the first attempt's. */
  slot?: Slot;
  send: SendConfig;
  /** A stream's 2xx answers, told as their headers come (the call's `onHeaders`). */
  onHeaders?: StreamHeadersHook['onHeaders'];
}

/** The answer an attempt handed over, and its slot (now the caller's to release). */
export interface HandedOver {
  answer: AttemptAnswer;
  slot: Slot;
}

/**
 * Runs the policy's attempts inside the call's deadline. Each attempt takes a slot, sends once, and
 * either hands its answer over with its slot, or gives the slot back and asks the policy what
 * follows: another attempt at once (it keeps the call's turn in the key's queue), a wait (which
 * holds no slot), or nothing (the call fails with the attempt's error).
 */
export function runAttempts(run: AttemptRun): Promise<HandedOver> {
  return new AttemptLoop(run).run();
}

/**
 * One call's attempt loop (`runAttempts`), read top to bottom in `run`. It is also its attempts'
 * ask for a slot (`SlotAsk`: the attempt's number, the call's model and events, whether it goes on
 * at once), so that asking makes nothing.
 */
class AttemptLoop implements SlotAsk {
  /** The number of the attempt under way, for its events. */
  attempt = 0;
  /** The attempt follows a failure at once: served before the calls that have not started. */
  ahead = false;
  readonly events: CallEvents | undefined;
  readonly requestedModel: string | undefined;
  readonly #run: AttemptRun;
  /** The attempts numbered here (a policy may number its own: `nextAttempt`). */
  #count = 0;
  /** The retries' waits taken so far, for the policy's `next`. */
  #waits = 0;
  /** The slot of the attempt under way while the loop holds it, and what that attempt sends. */
  #slot: Slot | undefined;
  #sending: Sending | undefined;
  /** The attempt's request is sent and its outcome not yet in: the call's end cuts it. */
  #inFlight = false;
  /** The policy refused the attempt's answer, and cancelling its body cut the request. */
  #refused = false;
  /** The failed attempt's request was cut, when that failure ends the call: its slot goes back so. */
  #cut = false;

  constructor(run: AttemptRun) {
    this.#run = run;
    this.events = run.events;
    this.requestedModel = run.spec.requestedModel;
  }

  async run(): Promise<HandedOver> {
    const { scope, policy, slots } = this.#run;
    /** The caller's slot (`OpenVia.slot`): the first attempt's, taken before the loop began. */
    let callerSlot = this.#run.slot;
    try {
      for (;;) {
        this.attempt = policy.nextAttempt?.() ?? ++this.#count;
        this.#sending = undefined;
        this.#refused = false;
        // Where each attempt takes its slot (the caller's own for the first, when it took one).
        const slot = callerSlot
          ? slots.adopt(callerSlot, this.events, this.attempt)
          : await slots.acquire(scope, this);
        this.#slot = slot;
        callerSlot = undefined;
        const sending = this.#requestOf();
        this.#inFlight = true;
        const result = await this.#attemptOnce(sending);
        this.#inFlight = false;
        if (!(result instanceof GatewayError)) return this.#handOver(result, slot, sending.request);
        const step = this.#stepAfter(result, sending.request);
        if ('waitMs' in step) await this.#waitToRetry(step, result, sending.request);
      }
    } catch (error) {
      // Before the slot is released: lets siblings stop before they take it.
      policy.failed?.(error);
      // (In flight when the call ended, aborted: cut; not if its body was read to its end.)
      const sending = this.#sending;
      const cut = this.#inFlight ? !sending?.answerStatus.readToEnd : this.#cut;
      if (this.#slot) this.#giveBack(cut);
      throw error;
    }
  }

  /** What the attempt sends, asked of the policy once its slot is held. */
  #requestOf(): Sending {
    const { spec, headers, scope, policy } = this.#run;
    const answerStatus: AnswerStatus = {};
    const request = policy.request(this.attempt, this.events, answerStatus);
    this.#sending = { spec, request, headers, scope, answerStatus };
    // (The policy's events ran the caller's handler, which may have aborted the call.)
    if (scope.ended) throw scope.error({ requestedModel: request.requestedModel });
    return this.#sending;
  }

  /** The attempt's answer, handed over with its slot (whose release the policy is told of). */
  #handOver(answer: AttemptAnswer, slot: Slot, request: AttemptRequest): HandedOver {
    const { policy } = this.#run;
    policy.handedOver?.(request);
    this.#slot = undefined;
    return { answer, slot: tellingPolicyOnRelease(slot, policy, request) };
  }

  /**
   * What follows the attempt's `failure` (the policy's `next`): none ends the call with it (thrown);
   * else the slot goes back, since neither moving on nor waiting holds one.
   */
  #stepAfter(failure: GatewayError, request: AttemptRequest): Exclude<NextAttempt, undefined> {
    const { policy, scope } = this.#run;
    // A request we aborted (its own signal, or an answer the policy refused) is cut: the gateway
    // counts it a little longer (slot-source.ts, `CUT_REQUEST_GRACE_MS`).
    const cut = this.#refused || ownAbort(request) !== undefined;
    const step = policy.next(failure, this.#waits, scope.remainingMs);
    if (step === undefined) {
      this.#cut = cut;
      throw failure;
    }
    this.#giveBack(cut);
    this.ahead = 'now' in step;
    return step;
  }

  /** A retry's wait, told to the events; it holds no slot, and the call's end during it ends the call. */
  async #waitToRetry(
    step: Extract<NextAttempt, { waitMs: number }>,
    failure: GatewayError,
    request: AttemptRequest,
  ): Promise<void> {
    this.#waits++;
    const lastFailure = toldRetry(this.events, this.attempt, step, request, failure);
    const { scope } = this.#run;
    try {
      await sleep(step.waitMs, scope.signal);
    } catch {
      throw scope.error({ requestedModel: request.requestedModel, lastFailure });
    }
  }

  /**
   * Gives the attempt's slot back, with the fetch it gave up on (send-once.ts, `abandoned`), whose
   * request may still be at the gateway: the slot source keeps the key's slot while it settles
   * (slot-source.ts). The policy is told at once: its clocks and counts are the attempt's, which
   * has ended.
   */
  #giveBack(cut: boolean): void {
    const sending = this.#sending;
    this.#slot?.release(cut, sending?.answerStatus.abandoned);
    this.#slot = undefined;
    if (sending) this.#run.policy.released?.(sending.request);
  }

  /** One attempt: sent once, observed by the call's events, its 2xx answer checked by the policy. */
  #attemptOnce(sending: Sending): Promise<AttemptAnswer | GatewayError> {
    const { events } = this;
    if (!events) return this.#sentAndAccepted(sending);
    const { model, body } = sending.request;
    // (The status, written as the headers come: an attempt aborted after them, a stall or a cut,
    // reports it in its `response`.)
    return events.observe(
      this.attempt,
      { ...sending.spec, model, body },
      () => this.#sentAndAccepted(sending),
      () => sending.answerStatus.status,
    );
  }

  /**
   * The attempt's outcome: sent once, then a 2xx answer offered to the policy's `accept` (a policy
   * without one takes all), then a whole one read for a failure it reports instead of an answer.
   */
  #sentAndAccepted(sending: Sending): Promise<AttemptAnswer | GatewayError> {
    const { send, policy, onHeaders } = this.#run;
    const sent = sendOnce(sending, send, onHeaders);
    const accepted = policy.accept
      ? sent.then((outcome) => this.#acceptedOrCut(outcome, sending))
      : sent;
    if (sending.spec.stream) return accepted;
    // A whole answer accepted is read within its attempt: an error object instead of an answer
    // may be a failure the policy retries (reported-in-answer.ts).
    return accepted.then((outcome) =>
      outcome instanceof GatewayError ? outcome : wholeAnswerChecked(outcome, sending, send),
    );
  }

  /**
   * A 2xx answer the policy takes, or the failure it refuses it with: the refused answer's body is
   * cancelled, which aborts its request (cut): the gateway stops counting it once it sees that. A
   * body the policy read to its end was a finished request: nothing is cut.
   */
  async #acceptedOrCut(
    outcome: AttemptAnswer | GatewayError,
    sending: Sending,
  ): Promise<AttemptAnswer | GatewayError> {
    if (outcome instanceof GatewayError) return outcome;
    let refused: GatewayError | undefined;
    try {
      refused = await this.#run.policy.accept?.(outcome, sending.request);
    } catch (error) {
      closeBody(outcome.reader, error);
      throw error;
    }
    if (refused === undefined) return outcome;
    if (outcome.readToEnd === true) return refused;
    closeBody(outcome.reader ?? outcome.response.body, refused);
    this.#refused = true;
    return refused;
  }
}

/**
 * Tells a retry scheduled after `attempt` failed with `result`: the failure it is for (the step's,
 * when it retries an earlier one), and the model it asks again — unless the step says it was told
 * already (`told`). Returns that failure.
 */
function toldRetry(
  events: CallEvents | undefined,
  attempt: number,
  step: Extract<NextAttempt, { waitMs: number }>,
  request: AttemptRequest,
  result: GatewayError,
): GatewayError {
  const failure = step.failure ?? result;
  if (step.told) return failure;
  const model = step.model ?? request.model ?? request.requestedModel;
  events?.retry(attempt, step.waitMs, failure, { model, failedIn: step.failedAttempt ?? attempt });
  return failure;
}

/**
 * The slot, its release also told to the policy (once), however the attempt ends: what the policy
 * counts while an attempt holds its slot ends with it.
 */
function tellingPolicyOnRelease(slot: Slot, policy: AttemptPolicy, request: AttemptRequest): Slot {
  if (!policy.released) return slot;
  let told = false;
  return {
    release: (cut, until) => {
      const held = slot.release(cut, until);
      if (told) return held;
      told = true;
      policy.released?.(request);
      return held;
    },
  };
}
