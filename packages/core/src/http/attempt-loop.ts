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
import type { SlotSource } from './slot-source';

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

/** The answer an attempt took, and its slot (now the caller's to release). */
export interface TakenAnswer {
  answer: AttemptAnswer;
  slot: Slot;
}

/**
 * Runs the policy's attempts inside the call's deadline. Each attempt takes a slot, sends once, and
 * either hands its answer over with its slot, or gives the slot back and asks the policy what
 * follows: another attempt at once (it keeps the call's turn in the key's queue), a wait (which
 * holds no slot), or nothing (the call fails with the attempt's error).
 */
export async function runAttempts(run: AttemptRun): Promise<TakenAnswer> {
  const { spec, scope, events, policy, slots } = run;
  /** The caller's slot, until the first attempt takes it over. */
  let taken = run.slot;
  /** The slot of the attempt under way, while this loop owns it, and what that attempt sends. */
  let held: Slot | undefined;
  let request: AttemptRequest | undefined;
  let inFlight = false;
  let answerStatus: AnswerStatus | undefined;
  let lastCut = false;
  let waits = 0;
  let count = 0;
  let ahead = false;
  try {
    for (;;) {
      const attempt = policy.nextAttempt?.() ?? ++count;
      // Each attempt's slot, taken here (or the one the caller took for it: `taken`).
      const ask = { ahead, events, attempt, requestedModel: spec.requestedModel, taken };
      taken = request = undefined;
      held = await slots.acquire(scope, ask);
      answerStatus = { cut: false };
      request = policy.request(attempt, events, answerStatus);
      // (The policy's events ran the caller's handler, which may have aborted the call.)
      if (scope.ended) throw scope.error({ requestedModel: request.requestedModel });
      inFlight = true;
      const sending = { spec, request, headers: run.headers, scope, answerStatus };
      const result = await attemptOnce(sending, run, attempt);
      // A request we aborted (its own signal, or an answer the policy refused) is cut: the
      // gateway counts it a little longer (slot-source.ts, `CUT_REQUEST_GRACE_MS`).
      const cut = answerStatus.cut || ownAbort(request) !== undefined;
      inFlight = false;
      if (!(result instanceof GatewayError)) {
        policy.taken?.(request);
        const slot = tellingPolicyOnRelease(held, policy, request);
        held = undefined;
        return { answer: result, slot };
      }
      const step = policy.next(result, waits, scope.remainingMs);
      if (step === undefined) {
        lastCut = cut;
        throw result;
      }
      // Neither moving on nor sleeping holds a slot: give it back, then queue again.
      givenBack(held, cut, request, run, answerStatus);
      held = undefined;
      ahead = 'now' in step;
      if (!('waitMs' in step)) continue;
      waits++;
      // A retry scheduled: the call may end during its wait (then no attempt follows).
      await wait(step.waitMs, scope, request, toldRetry(events, attempt, step, request, result));
    }
  } catch (error) {
    // Before the slot is released: lets siblings stop before they take it.
    policy.failed?.(error);
    // (In flight when the call ended, aborted: cut; not if its body was read to its end.)
    const cut = (inFlight && !answerStatus?.readToEnd) || lastCut;
    if (held) givenBack(held, cut, request, run, answerStatus);
    throw error;
  }
}

/**
 * Gives a failed attempt's slot back, with the fetch it gave up on (send-once.ts, `abandoned`),
 * whose request may still be at the gateway: the slot source keeps the key's slot while it settles
 * (slot-source.ts). The policy is told at once: its clocks and counts are the attempt's, which has
 * ended.
 */
function givenBack(
  slot: Slot,
  cut: boolean,
  request: AttemptRequest | undefined,
  { policy }: AttemptRun,
  answer: AnswerStatus | undefined,
): void {
  slot.release(cut, answer?.abandoned);
  if (request) policy.released?.(request);
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

/** One attempt: sent once, observed by the call's events, its 2xx answer checked by the policy. */
function attemptOnce(
  sending: Sending,
  run: AttemptRun,
  attempt: number,
): Promise<AttemptAnswer | GatewayError> {
  const { events } = run;
  if (!events) return sentAndAccepted(sending, run);
  const { model, body } = sending.request;
  // (The status, written as the headers come: an attempt aborted after them, a stall or a cut,
  // reports it in its `response`.)
  return events.observe(
    attempt,
    { ...sending.spec, model, body },
    () => sentAndAccepted(sending, run),
    () => sending.answerStatus.status,
  );
}

/**
 * The attempt's outcome: sent once, then a 2xx answer offered to the policy's `accept` (a policy
 * without one takes all), then a whole one read for a failure it reports instead of an answer.
 */
function sentAndAccepted(
  sending: Sending,
  { send, policy, onHeaders }: AttemptRun,
): Promise<AttemptAnswer | GatewayError> {
  const sent = sendOnce(sending, send, onHeaders);
  const accepted = policy.accept
    ? sent.then((outcome) => acceptedOrCut(outcome, policy, sending))
    : sent;
  if (sending.spec.stream) return accepted;
  // A whole answer taken is read within its attempt: an error object instead of an answer may be
  // a failure the policy retries (reported-in-answer.ts).
  return accepted.then((outcome) =>
    outcome instanceof GatewayError ? outcome : wholeAnswerChecked(outcome, sending, send),
  );
}

/**
 * A 2xx answer the policy takes, or the failure it refuses it with: the refused answer's body is
 * cancelled, which aborts its request (`answerStatus.cut`): the gateway stops counting it once it sees
 * that. A body the policy read to its end was a finished request: nothing is cut.
 */
async function acceptedOrCut(
  outcome: AttemptAnswer | GatewayError,
  policy: AttemptPolicy,
  sending: Sending,
): Promise<AttemptAnswer | GatewayError> {
  if (outcome instanceof GatewayError) return outcome;
  let refused: GatewayError | undefined;
  try {
    refused = await policy.accept?.(outcome, sending.request);
  } catch (error) {
    closeBody(outcome.reader, error);
    throw error;
  }
  if (refused === undefined) return outcome;
  if (outcome.readToEnd === true) return refused;
  closeBody(outcome.reader ?? outcome.response.body, refused);
  sending.answerStatus.cut = true;
  return refused;
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

/** A retry's wait, which holds no slot; the call's end during it is the call's error. */
async function wait(
  ms: number,
  scope: CallScope,
  request: AttemptRequest,
  lastFailure: GatewayError,
): Promise<void> {
  try {
    await sleep(ms, scope.signal);
  } catch {
    throw scope.error({ requestedModel: request.requestedModel, lastFailure });
  }
}
