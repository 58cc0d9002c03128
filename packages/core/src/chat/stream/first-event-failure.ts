// docs/gateway-protocol.md §5.3 (an error event in a 200 stream), §5.5 (nothing is replayed once
// the answer began; a stream lost before any content is retried), §10.5 (retried as the same
// failure answered with its status).
import type { CallScope } from '../../call/call-scope';
import { type GatewayError, gatewayFailure, isGatewayError } from '../../errors/errors';
import { completeAnswerFailure } from '../../errors/response-headers';
import { ERROR_JSON_READ_BYTES } from '../../http/answer-errors';
import type { AttemptAnswer, AttemptPolicy } from '../../http/attempt-policy';
import { READ_SLICE_BYTES } from '../../http/body-read-ahead';
import { reportedInsteadOfContent } from '../../http/reported-instead';
import { answeringModel } from '../../protocol/answering-model';
import { ChatStreamDecoder } from './chat-stream-decoder';
import { graceAfterDone } from './grace-after-done';
import { notAnEventStream } from './not-an-event-stream';

/** The client's bounds a stream's first event is read with. */
export interface FirstEventLimits {
  maxErrorBodyBytes: number;
  /** The longest `Retry-After` taken (a failure asking for longer is not retried). */
  maxRetryAfterMs?: number;
  /** The choices the request asked (`n`, several-choices.ts): read as the stream reads them. */
  choices?: number;
}

/**
 * The policy of a plain (not steered) stream: `policy`'s, and its answer taken once its first
 * event came (`firstEventFailure`): a stream that reports a failure before any content fails
 * its attempt, retried only when that failure's status would be. Read under the call's `scope`.
 */
export function acceptingFirstEvent(
  policy: AttemptPolicy,
  scope: CallScope,
  limits: FirstEventLimits,
): AttemptPolicy {
  return {
    nextAttempt: () => policy.nextAttempt?.(),
    request: (attempt, events, answer) => policy.request(attempt, events, answer),
    released: (request) => policy.released?.(request),
    next: (failure, waits, remainingMs) => policy.next(failure, waits, remainingMs),
    failed: (error) => policy.failed?.(error),
    handedOver: (request) => policy.handedOver?.(request),
    accept: (answer, request) => firstEventFailure(answer, scope, limits, request.requestedModel),
  };
}

/**
 * Reads a stream's bytes until its first content (the decoder's `answered`: a text, reasoning,
 * refusal or tool-call piece, or a finish; role-only and empty chunks are none, so an error event
 * after one is found however the bytes split across reads), keeping them in `answer.chunks` for
 * the stream that decodes them again; at most `ERROR_JSON_READ_BYTES` of them: resolves to the
 * failure it reported instead of any content (an error event, an event that cannot be read),
 * whatever its code — the attempt's failure, as a whole answer's and a steered stream's are: its
 * events say failed, a breaker counts it, and only a retryable one (`model_busy`, …:
 * errors/retryable-failure.ts) is sent again. A body cut or ended before any content (after
 * comments or role-only chunks: nothing reached the caller) is a retryable `network_error`, as one
 * lost before its first bytes is (§5.5), unless an event was left unended (data that may have been
 * content: the stream says `stream_incomplete`). Else to undefined: the answer is handed over, and
 * the stream reports what it holds (content, then an error after it) as it always did. Ends with
 * the call (`scope`).
 */
export async function firstEventFailure(
  answer: AttemptAnswer,
  scope: CallScope,
  limits: FirstEventLimits,
  requestedModel: string | undefined,
): Promise<GatewayError | undefined> {
  if (answer.reader === undefined) return undefined;
  const { maxErrorBodyBytes, maxRetryAfterMs, choices } = limits;
  // (Its choices read as the stream reads them once handed over: both find the same content.)
  const decoder = new ChatStreamDecoder({ assemble: false, maxErrorBodyBytes }, choices);
  const lost = await readToContent(answer, decoder, scope);
  if (scope.aborted) throw scope.error({ requestedModel });
  // (Content decoded before the failure came first: the stream hands it out, then the failure.)
  if (decoder.answered > 0) return undefined;
  // (Ended, or held to the bound, with no content: a body with no event-stream line is no stream;
  // one held to the bound that is a stream is handed over, it reads on as it always did.)
  const other = notAnEventStream(answer, maxErrorBodyBytes, lost === true, lost);
  if (lost === undefined && other === undefined) return undefined;
  const failure = other ?? failedBeforeContent(answer, decoder, lost, maxRetryAfterMs);
  if (failure === undefined) return undefined;
  const { headers } = answer.response;
  // (Named as the stream would name it: the answering model, the header's, else the chunks'.)
  const servedModel = answeringModel(headers, decoder.model, requestedModel);
  return completeAnswerFailure(failure, headers, { requestedModel, servedModel });
}

/**
 * Reads `answer` into `decoder` until its first content, keeping each chunk in `answer.chunks`:
 * the body's end (`true`), what reading it threw, or `[DONE]`'s `stream_incomplete` when it came
 * before any content and nothing after it did; undefined when content came or the bytes held
 * reached their bound. After `[DONE]` it reads on, as the stream does (§5.2) and a steered
 * stream's read-ahead does (first-content.ts), for a cut request's grace at most: a finish sent
 * after it is the (empty) answer however the bytes split across reads.
 */
async function readToContent(
  answer: AttemptAnswer,
  decoder: ChatStreamDecoder,
  scope: CallScope,
): Promise<unknown> {
  const reader = answer.reader!;
  const chunks = answer.chunks ?? [];
  answer.chunks = chunks;
  const text = new TextDecoder();
  const onAbort = () => reader.cancel(scope.signal.reason).catch(() => {});
  scope.signal.addEventListener('abort', onAbort, { once: true });
  let grace: ReturnType<typeof setTimeout> | undefined;
  let held = 0;
  let lost: unknown;
  try {
    for (const chunk of chunks) {
      feedSliced(decoder, text, chunk);
      held += chunk.byteLength;
    }
    // (Bytes with no content in them — comments, role-only or empty chunks — are held at most up
    // to an error body's read: past that the stream is handed over, and reads on as it always did.)
    while (decoder.answered === 0 && held < ERROR_JSON_READ_BYTES) {
      // (The grace over, the body is let go: its read ends as the body's end does.)
      if (decoder.done) grace ??= graceAfterDone(answer);
      const next = await reader.read();
      if (scope.aborted) break;
      if (next.done) {
        // (A body read to its end, or let go after `[DONE]`: the gateway finished the request,
        // refusing it cuts nothing; its slot comes back with it.)
        answer.readToEnd = true;
        lost = true;
        break;
      }
      chunks.push(next.value);
      held += next.value.byteLength;
      feedSliced(decoder, text, next.value);
    }
  } catch (cause) {
    lost = cause;
  } finally {
    clearTimeout(grace);
    scope.signal.removeEventListener('abort', onAbort);
  }
  // (`[DONE]` before any content, and none after it: the end, as the body's is.)
  const doneFirst = decoder.done && decoder.answered === 0 && (lost === true || lost === undefined);
  return doneFirst ? decoder.incomplete('done') : lost;
}

/**
 * The failure of a stream that failed (`lost`: what its read or decoder threw) or ended (`true`)
 * before any content: an error event's (or an unreadable event's), as its status would be; a body
 * cut or ended (`[DONE]` too) a retryable `network_error`, as one lost before its first bytes
 * (nothing reached the caller); undefined with an event left unended (its data may have been
 * content: the stream says `stream_incomplete`).
 */
function failedBeforeContent(
  answer: AttemptAnswer,
  decoder: ChatStreamDecoder,
  lost: unknown,
  maxRetryAfterMs: number | undefined,
): GatewayError | undefined {
  const { response } = answer;
  if (isGatewayError(lost) && lost.code !== 'stream_incomplete') {
    return reportedInsteadOfContent(lost, response.headers, maxRetryAfterMs);
  }
  if (decoder.heldDataChars > 0) return undefined;
  // (A body read to its end: the gateway finished the request, refusing it cuts nothing.)
  if (lost === true) answer.readToEnd = true;
  const cause = lost === true ? undefined : lost;
  const message = 'The stream ended before any content';
  return gatewayFailure(
    { code: 'network_error', status: response.status, message, cause },
    { beforeFirstBytes: true },
  );
}

/** A chunk decoded a slice at a time (a body handed over in one large chunk is never decoded whole). */
function feedSliced(decoder: ChatStreamDecoder, text: TextDecoder, chunk: Uint8Array): void {
  for (let at = 0; at < chunk.byteLength; at += READ_SLICE_BYTES) {
    decoder.feed(text.decode(chunk.subarray(at, at + READ_SLICE_BYTES), { stream: true }));
  }
}
