// docs/gateway-protocol.md §4.7 (a stream may fail over until its first content), §5.5 (nothing is
// replayed once the answer began).
import { GatewayError, gatewayFailure, isGatewayError } from '../../errors/errors';
import { type AnsweringModel, completeAnswerFailure } from '../../errors/response-headers';
import type { AttemptAnswer } from '../../http/attempt-policy';
import { DEFAULT_ERROR_BODY_BYTES } from '../../http/kept-error-body';
import { reportedInsteadOfContent } from '../../http/reported-instead';
import { ChatStreamDecoder } from './chat-stream-decoder';
import { graceAfterDone } from './grace-after-done';
import { notAnEventStream } from './not-an-event-stream';
import { readAhead } from './read-ahead';

/**
 * Characters of whole events a stream may send before its first content (comments, role and empty
 * chunks: known not to be content). The line or event being read is not counted: it may be the
 * content, and the SSE limits bound it (8 Mi characters, split-sse-data.ts).
 */
const MAX_CHARS_BEFORE_CONTENT = 1024 * 1024;

/**
 * Reads a streamed answer until its first piece of content (the decoder's `answered`: text,
 * reasoning or tool-call pieces, or a finish), keeping every byte read in `answer.chunks` for the
 * stream that decodes them again. Resolves to undefined once content came — also when a failure
 * followed it in the same read: the stream reports it after the content; to the failure when the
 * stream failed, ended or sent an error event before any (nothing has reached the caller, so the
 * call may move on), or to the reason `signal` aborted with (a stall). The failure names `model`
 * (the attempt's), the answering model and the answer's headers, as the plain stream's would;
 * an error event is the failure the 2xx reported instead (http/reported-instead.ts: its
 * Retry-After read, `limits.maxRetryAfterMs` the longest taken). `limits.maxErrorBodyBytes`: the
 * client's bound on an error event's kept text; `limits.choices` the choices the request asked
 * (`n`, several-choices.ts), read as the stream reads them once handed over.
 */
export async function readToFirstContent(
  answer: AttemptAnswer,
  signal: AbortSignal,
  model?: string,
  answering?: AnsweringModel,
  limits: { maxErrorBodyBytes?: number; maxRetryAfterMs?: number; choices?: number } = {},
): Promise<GatewayError | undefined> {
  if (answer.reader === undefined) return undefined;
  const { maxErrorBodyBytes, maxRetryAfterMs, choices } = limits;
  // (An error event's text kept as the plain stream keeps it: the client's bound; its choices
  // read as the stream reads them, so both find the same first content.)
  const decoder = new ChatStreamDecoder({ assemble: false, maxErrorBodyBytes }, choices);
  const found = await firstContentFailure(answer, decoder, signal);
  if (found === undefined) return undefined;
  const { headers } = answer.response;
  // A body with no event-stream line (a proxy's page): `invalid_response`, as the plain stream
  // says; it ends the call, as an HTML or JSON answer does (http/stream-first-bytes.ts): not
  // retried, no other model tried (the page is the gateway's or a proxy's, not the model's).
  const other = otherAnswer(answer, found, decoder, maxErrorBodyBytes);
  // An error event before any content: the failure the 2xx reported instead, retried (on this
  // model, in a later round) as its status would be, its Retry-After honoured.
  const status = found.status ?? 0;
  const reported = status >= 200 && status < 300 && found.code !== 'network_error';
  const failure = reported ? reportedInsteadOfContent(found, headers, maxRetryAfterMs) : found;
  // Named as the plain stream names its failure: the attempt's model, the answering one (the
  // header, else the chunks'), the 2xx answer's headers.
  const servedModel = answering?.(headers, decoder.model, model);
  const named = { requestedModel: model, servedModel };
  if (other) throw completeAnswerFailure(other, headers, named);
  return completeAnswerFailure(failure, headers, named);
}

/**
 * A body read before any content that held no event-stream line, to its end (`found`: a stream
 * lost) or past the bound of what is held before content (`found`: too much of it): its failure.
 */
function otherAnswer(
  answer: AttemptAnswer,
  found: GatewayError,
  decoder: ChatStreamDecoder,
  maxErrorBodyBytes = DEFAULT_ERROR_BODY_BYTES,
): GatewayError | undefined {
  const ended = answer.readToEnd === true;
  const pastBound = decoder.answered === 0 && decoder.settledChars > MAX_CHARS_BEFORE_CONTENT;
  if (ended ? found.code !== 'network_error' : !pastBound) return undefined;
  return notAnEventStream(answer, maxErrorBodyBytes, ended);
}

async function firstContentFailure(
  answer: AttemptAnswer,
  decoder: ChatStreamDecoder,
  signal: AbortSignal,
): Promise<GatewayError | undefined> {
  let grace: ReturnType<typeof setTimeout> | undefined;
  const read = await readAhead(answer, decoder, signal, () => {
    // `[DONE]` before any content: read on as the plain stream does (§5.2), a finish sent after it
    // the (empty) answer, for a cut request's grace at most; then the body let go, its end.
    if (decoder.done) grace ??= graceAfterDone(answer);
    return decoder.answered > 0 || decoder.settledChars > MAX_CHARS_BEFORE_CONTENT;
  });
  // (Cleared here, not in a `finally` of the promise: no tick added before a hedge's race.)
  clearTimeout(grace);
  const { bytes, ended } = read;
  // (`[DONE]` before any content, and none after it: the end, as the body's is.)
  const doneFirst = decoder.done && decoder.answered === 0 && read.failure === undefined;
  const failure = doneFirst ? decoder.incomplete('done') : read.failure;
  if (!ended && failure === undefined) {
    return decoder.answered > 0 ? undefined : tooMuchBeforeContent(answer, decoder.settledChars);
  }
  // Data lines no event ended (no blank line after them): the plain stream's `stream_incomplete`,
  // not an empty stream's retry.
  if (decoder.heldDataChars > 0 && (failure === undefined || !isGatewayError(failure))) {
    return unendedEvent(answer, decoder, failure);
  }
  // `[DONE]` before any content ended the stream as its body's end does.
  if (isGatewayError(failure) && failure.code !== 'stream_incomplete') {
    // A stall; or an error event (or an event that cannot be read) before any content: a 2xx
    // failure the walk moves on from (steering/failover-reason.ts), as no answer.
    return failure;
  }
  return endedBeforeContent(answer, bytes, failure);
}

/** A stream that ended (or failed) before any content: no answer, retryable like a lost connection. */
function endedBeforeContent(answer: AttemptAnswer, bytes: number, cause?: unknown): GatewayError {
  return gatewayFailure(
    {
      code: 'network_error',
      status: answer.response.status,
      message: `The stream ended before any content (${bytes} bytes of comments or empty chunks)`,
      cause,
    },
    { beforeFirstBytes: true },
  );
}

/**
 * A stream that ended or was cut with data in no event: `stream_incomplete` as the plain stream
 * says it; a 2xx answer that began, so not sent again to the same model (§10.5), but none of it
 * reached the caller, so the walk moves on to the next (steering/failover-reason.ts).
 */
function unendedEvent(
  answer: AttemptAnswer,
  decoder: ChatStreamDecoder,
  cut: unknown,
): GatewayError {
  const { message, cause } = decoder.incomplete(cut === undefined ? 'closed' : 'cut', cut);
  return gatewayFailure(
    { code: 'stream_incomplete', status: answer.response.status, message, cause },
    {},
  );
}

function tooMuchBeforeContent(answer: AttemptAnswer, chars: number): GatewayError {
  return new GatewayError({
    code: 'provider_protocol_error',
    status: answer.response.status,
    message: `The stream sent ${chars} characters of events without any content (more than ${MAX_CHARS_BEFORE_CONTENT}); it was stopped`,
  });
}
