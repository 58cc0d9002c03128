// docs/gateway-protocol.md §4.8 item 5 (a structured stream that fails before any content moves
// on), §4.7 (a stream may fail over until its first content), §10.5 (not retried once it began).
/**
 * A structured stream's start, read in its attempt (loaded with the steering module): its first
 * content is what its map lets through to the caller, not the raw text. A stream whose map held
 * everything to its end (JSON in prose, whitespace, an unclosed think block) has given the caller
 * nothing: its answer is checked here, and a failure moves the walk on as a whole answer's does.
 */
import { type GatewayError, gatewayFailure, isGatewayError } from '../../errors/errors';
import { type AnsweringModel, completeAnswerFailure } from '../../errors/response-headers';
import type { AttemptAnswer } from '../../http/attempt-policy';
import type { ChatStreamEvent } from '../../protocol/chat-result-types';
import { ChatStreamDecoder } from './chat-stream-decoder';
import { graceAfterDone } from './grace-after-done';
import { readAhead } from './read-ahead';
import type { DecodedEvents, StructuredStream } from './sse-chat-stream';

/** How a held stream's read is bounded: `signal` (a stall, the call's end) and its stall clock. */
export interface HeldRead {
  signal: AbortSignal;
  /** Told each time the read decoded content (the raw answer's: it restarts the stall clock). */
  onContent?: () => void;
  /**
   * Held to its end whatever its map lets through: the walk could still move on from this model,
   * so none of its answer may reach the caller before its check passed.
   */
  toEnd?: boolean;
}

/**
 * Reads on from the bytes `answer.chunks` holds until `hooks`' map lets content through before
 * the answer's end (undefined: the stream is handed over, those bytes decoded again), else — and
 * always with `read.toEnd` — to the end: the check's failure, or undefined when it passed (the
 * stream is handed over then too, its whole answer given at once). Past `maxBytes` with nothing let
 * through, it fails `response_too_large` (none of its text, unchecked, reaches the caller: rv-2so
 * F4); `read.signal` aborting (a stall, the call's end) cancels the read and is
 * the failure. Nothing reached the caller: a stream that fails, is cut or ends short is the
 * attempt's failure, and the walk moves on (§4.7 rule 3).
 */
export async function checkStructuredStart(
  answer: AttemptAnswer,
  hooks: StructuredStream,
  maxBytes: number,
  read: HeldRead,
  model: string,
  answering: AnsweringModel,
  maxErrorBodyBytes: number,
): Promise<GatewayError | undefined> {
  if (answer.reader === undefined) return undefined;
  // (An error event's text kept as the plain stream keeps it: the client's bound. One choice: a
  // structured stream refuses `n` > 1, so a lone choice of another index is the answer, as the
  // plain stream reads it.)
  const decoder = new ChatStreamDecoder({ assemble: true, maxErrorBodyBytes }, 1);
  const source = lastTaken(decoder);
  const events = hooks.events(source);
  let through = false;
  let answered = decoder.answered;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const ahead = await readAhead(answer, decoder, read.signal, (bytes) => {
    if (decoder.answered !== answered) read.onContent?.();
    answered = decoder.answered;
    for (let event = events.take(); event; event = events.take()) {
      // Text a map releases with the finish is the answer's end, not content before it.
      if (!read.toEnd && isContent(event) && source.last?.type !== 'finish') {
        through = true;
        break;
      }
    }
    // After `[DONE]` as the plain stream: read on until nothing more can come (the decoder's
    // `complete`: a late finish or usage is read), for a cut request's grace at most, then the
    // body let go (its end: `endOf` decides).
    const over = decoder.done && decoder.complete;
    if (decoder.done && !over) grace ??= graceAfterDone(answer);
    return through || over || bytes > maxBytes;
  }).finally(() => clearTimeout(grace));
  // A stall or a cut once the finish_reason came ends the answer, as for the plain stream.
  const endedAtFinish = !through && decoder.hasFinish && endsAtFinish(ahead.failure);
  // The call's end, a stall, an error event, a body cut or ended short: the attempt's failure.
  const failure = endedAtFinish
    ? undefined
    : (ahead.failure ?? (through || (!ahead.ended && !decoder.done) ? undefined : endOf(decoder)));
  const models = { model, answering };
  if (failure !== undefined) return unanswered(answer, decoder, failure, models);
  if (through) return undefined;
  if (ahead.bytes > maxBytes)
    return unanswered(answer, decoder, tooLarge(answer, maxBytes), models);
  // The answer is whole: the gateway has finished the request, refusing it cuts nothing.
  if (!endedAtFinish) answer.readToEnd = true;
  return hooks.check(decoder.result()).then(
    () => undefined,
    (error: GatewayError) => error,
  );
}

/** A held stream past `maxResponseBytes`: stopped in its attempt, nothing of it handed over. */
function tooLarge(answer: AttemptAnswer, maxBytes: number): GatewayError {
  return gatewayFailure(
    {
      code: 'response_too_large',
      status: answer.response.status,
      message: `The stream passed maxResponseBytes (${maxBytes} bytes) in total while held for the structured-output check; it was stopped before any of its text reached the caller`,
    },
    {},
  );
}

/** The body's end: what the decoder throws when the answer is not whole (no finish_reason). */
function endOf(decoder: ChatStreamDecoder): unknown {
  try {
    // (After `[DONE]` too: without any finish_reason it is `stream_incomplete`.)
    decoder.end();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** A read's failure that only ends the answer once its finish_reason came: a stall, a body cut. */
function endsAtFinish(failure: unknown): boolean {
  return failure !== undefined && (!isGatewayError(failure) || failure.stall !== undefined);
}

/**
 * A held stream's failure. One cut or ended short is `stream_incomplete`, as the plain stream's:
 * a 2xx answer had begun, so it is not sent again to the same model (§10.5), but none of it
 * reached the caller, so the walk moves on to the next model (steering/failover-reason.ts). It
 * names `model` (the attempt's), the answering model and the answer's headers, as the plain
 * stream's failure would.
 */
function unanswered(
  answer: AttemptAnswer,
  decoder: ChatStreamDecoder,
  failure: unknown,
  { model, answering }: { model: string; answering: AnsweringModel },
): GatewayError {
  const { headers } = answer.response;
  const models = {
    requestedModel: model,
    servedModel: answering(headers, decoder.model, model),
  };
  return completeAnswerFailure(heldFailure(answer, decoder, failure), headers, models);
}

function heldFailure(answer: AttemptAnswer, decoder: ChatStreamDecoder, failure: unknown) {
  if (isGatewayError(failure) && failure.code !== 'stream_incomplete') return failure;
  const incomplete = isGatewayError(failure) ? failure : decoder.incomplete('cut', failure);
  const message = `${incomplete.message} (none of its text reached the caller: it was held for the structured-output check)`;
  return gatewayFailure(
    { code: 'stream_incomplete', status: answer.response.status, message, cause: incomplete.cause },
    {},
  );
}

/** The decoder's events, the last one taken kept (what the map's output came from). */
function lastTaken(decoder: ChatStreamDecoder): DecodedEvents & { last?: ChatStreamEvent } {
  const source: DecodedEvents & { last?: ChatStreamEvent } = {
    take() {
      source.last = decoder.take();
      return source.last;
    },
    takeAll() {
      const all = decoder.takeAll();
      source.last = all?.at(-1);
      return all;
    },
  };
  return source;
}

/**
 * Content the map let through: a text, reasoning or tool-call piece (what the decoder's `answered`
 * counts, but of the map's events; beside `answered`, the plain chat path would load it).
 */
function isContent(event: ChatStreamEvent): boolean {
  return (
    event.type === 'text-delta' ||
    event.type === 'reasoning-delta' ||
    event.type === 'tool-call-delta'
  );
}
