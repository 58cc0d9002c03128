// docs/gateway-protocol.md §4.7 (each attempt of a steered call: its model, its first-content
// stall, what follows its failure).
import type { CallScope } from '../call/call-scope';
import type { GatewayError } from '../errors/errors';
import type {
  AttemptAnswer,
  AttemptPolicy,
  AttemptRequest,
  RetryAllowance,
} from '../http/attempt-policy';
import type { FailoverWalk } from './failover-walk';
import { countModelInflight } from './model-inflight';
import { FirstChunkWatch, HeldReadWatch } from './stall-watch';

/**
 * Reads a streamed answer until its first content (what counts is the stream decoder's to say:
 * text, reasoning or tool-call pieces, or a finish), adding the bytes read to `answer.chunks`.
 * Resolves to the failure when the stream failed or ended before any, or `signal` aborted.
 */
export type FirstContentReader = (
  answer: AttemptAnswer,
  signal: AbortSignal,
  /** The attempt's model, which the failure names. */
  model: string,
) => Promise<GatewayError | undefined>;

/** What a steered call's attempts are made of. */
export interface WalkPolicyInput {
  walk: FailoverWalk;
  scope: CallScope;
  /**
   * The run's own signal (a hedged call's run: its scope's, aborted alone when the other run won);
   * default the call's. An attempt's watches follow it, so a cut run's request is stopped at once.
   */
  runSignal?: AbortSignal;
  /** The key's budget id: our requests per model are counted under it. */
  budgetId: string;
  retry: RetryAllowance;
  stream: boolean;
  /** `firstChunkTimeoutMs`, resolved; undefined: no first-content clock. */
  firstChunkMs: number | undefined;
  /** A stream's `chunkTimeoutMs`, resolved: the stall clock of a read ahead of the caller. */
  chunkMs?: number | undefined;
  firstContent: FirstContentReader;
  /**
   * A call asking for structured output: its whole answer checked while the attempt holds its
   * slot (`model`: the attempt's; an abort cuts the body's read); a stream's after its first
   * content, when its map let nothing through before its end. Resolves to the failure that ends
   * the attempt, or undefined when the answer passed or the stream is handed over (the check
   * leaves one the transport can read again in `answer.response` / `answer.chunks`). `signal`:
   * the attempt's (its abort cancels a stream's read); `onContent`: told as a stream's read decodes
   * content (its stall clock starts again).
   */
  checkWhole?: (
    answer: AttemptAnswer,
    model: string,
    signal: AbortSignal,
    onContent?: () => void,
  ) => Promise<GatewayError | undefined>;
  /**
   * Told each attempt's outcome: its model, its failure (undefined: it answered, its first content
   * `ms` after it was sent).
   */
  onOutcome?: (model: string, failure: GatewayError | undefined, ms: number) => void;
  /** Told as each request is sent, with its attempt's number (a hedged call's clock starts at the first). */
  onRequest?: (attempt: number) => void;
  /**
   * Told as a stream's first content came, before a structured one is held to its check (a hedged
   * call's race is decided by it: no hedge after it, the other run cut).
   */
  onFirstContent?: () => void;
  /**
   * Numbers the attempts when several runs of one call share its events (a hedged call's runs
   * count from one count); default 1, 2, 3…
   */
  nextAttempt?: () => number;
}

/**
 * The policy the transport asks for each attempt of a steered call: the walk's model (chosen once
 * the slot is held), an attempt signal with its first-content clock, our count of requests to the
 * model while the slot is held; a streamed answer is taken only once its first content came (a
 * stream that fails, ends or stalls before any has delivered nothing: the walk may move on); a
 * failure goes to the walk.
 */
export function walkPolicy(input: WalkPolicyInput): AttemptPolicy {
  const { walk, scope, budgetId, retry, stream, firstChunkMs, firstContent, onOutcome } = input;
  const runSignal = input.runSignal ?? scope.signal;
  let watch: FirstChunkWatch | undefined;
  let sentAt = 0;
  /** Time to the accepted answer's first content, told once the answer is taken. */
  let firstContentMs = 0;
  /** What ends when the attempt's slot is given back: its count, its first-content clock. */
  let held: { counted: () => void; watch: FirstChunkWatch | undefined } | undefined;
  return {
    nextAttempt: input.nextAttempt,
    request(attempt, events, answer): AttemptRequest {
      const model = walk.startAttempt(events, attempt);
      sentAt = performance.now();
      input.onRequest?.(attempt);
      const attemptWatch =
        firstChunkMs === undefined
          ? undefined
          : new FirstChunkWatch(runSignal, firstChunkMs, model, answer);
      watch = attemptWatch;
      held = { counted: countModelInflight(budgetId, model), watch: attemptWatch };
      const request: AttemptRequest = { body: walk.body(), requestedModel: model, model };
      if (attemptWatch) request.signal = attemptWatch.signal;
      return request;
    },
    // The slot given back, however the attempt ended, stops its clock too: a failure the
    // transport throws (an answer that cannot be read) never reaches `next`, and its timer would
    // hold the process until the limit.
    released() {
      held?.counted();
      held?.watch?.end();
      held = undefined;
    },
    async accept(answer, request) {
      const signal = request.signal ?? runSignal;
      const failure = stream
        ? await firstContent(answer, signal, request.requestedModel!)
        : undefined;
      if (scope.aborted) throw scope.error({ requestedModel: request.requestedModel });
      if (failure) return failure;
      watch?.arrived();
      if (stream) input.onFirstContent?.();
      // Time to first content: the headers (or first piece), not the check's read of the body.
      firstContentMs = performance.now() - sentAt;
      const refused = await checkHeld(input, answer, request.requestedModel!, signal);
      if (scope.aborted) throw scope.error({ requestedModel: request.requestedModel });
      return refused;
    },
    // (An answer, for the breakers and the latency record, only once handed over: a whole body
    // read after `accept` may still be a failure it reported instead, told to `next` alone.)
    handedOver(request) {
      onOutcome?.(request.requestedModel!, undefined, firstContentMs);
    },
    next(failure, waits, remainingMs) {
      watch?.end();
      onOutcome?.(walk.model, failure, performance.now() - sentAt);
      return walk.next(failure, waits, { ...retry, remainingMs });
    },
  };
}

/**
 * The structured check of an attempt's answer (`checkWhole`); a stream's read ahead of its caller
 * runs under `chunkTimeoutMs`'s clock, as the stream would once handed over: a model that goes
 * silent while its text is held stalls, and the walk moves on (nothing reached the caller).
 */
async function checkHeld(
  input: WalkPolicyInput,
  answer: AttemptAnswer,
  model: string,
  signal: AbortSignal,
): Promise<GatewayError | undefined> {
  const { checkWhole, chunkMs } = input;
  if (checkWhole === undefined) return undefined;
  if (!input.stream || chunkMs === undefined) return checkWhole(answer, model, signal);
  const context = { requestedModel: model, status: answer.response.status };
  const held = new HeldReadWatch(signal, chunkMs, context);
  try {
    return await checkWhole(answer, model, held.signal, () => held.content());
  } finally {
    held.end();
  }
}
