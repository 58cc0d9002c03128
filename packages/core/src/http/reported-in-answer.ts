// docs/gateway-protocol.md §5.3 (an error in a 200 answer), §10.5 (retried as the same failure
// answered with its status).
import { type GatewayError, isGatewayError } from '../errors/errors';
import { unreadBody } from './answer-errors';
import { type AttemptAnswer, ownAbort } from './attempt-policy';
import { declaredLength, readBoundedBody } from './read-bounded-body';
import { reportedInsteadOfContent } from './reported-instead';
import type { SendConfig, Sending } from './send-once';
import { failureInsteadOfAnswer } from './unusable-answer';
import { type ParsedBodyRead, parsedWholeBody } from './whole-answer';

/**
 * A whole (not streamed) 2xx JSON answer, its body read once, within its attempt (its slot held,
 * as its reader would hold it), the read kept on the answer (`body`) for its reader
 * (whole-answer.ts), which reads it no more (a body not labelled, or labelled `text/plain`, too:
 * `mayBeJson`). A body that is a gateway error object and no answer is the attempt's failure,
 * so the call's policy says what follows, as it would for the same code answered as a status
 * (sent again when errors/retryable-failure.ts says so, another model asked, or the call's
 * error). Asked once the policy took the answer (its `accept`): its first-content
 * clock has stopped. A read whose connection failed midway is the attempt's failure too (not
 * retried; its policy says what follows). One too large is kept, for its reader to fail the call
 * with, as it always did (not retried). Answers of
 * another type (an HTML page) and bodies too large by their Content-Length are handed on unread.
 */
export async function wholeAnswerChecked(
  answer: AttemptAnswer,
  sending: Sending,
  config: SendConfig,
): Promise<AttemptAnswer | GatewayError> {
  const { response } = answer;
  const limit = config.maxResponseBytes;
  if (limit === undefined || response.body === null || !mayBeJson(response.headers)) return answer;
  if ((declaredLength(response.headers) ?? 0) > limit) return answer;
  const { request, scope } = sending;
  let read: { text: string; truncated: boolean };
  try {
    read = await readBoundedBody(response, limit, scope);
    answer.body = read;
  } catch (cause) {
    answer.body = { failed: cause };
    // (The call's end is its reader's to report; a request the policy aborted is its failure.)
    if (scope.aborted) return answer;
    // A body broken off midway (its connection failed) is the attempt's failure, as the reader
    // would read it (`network_error`, not retried: the answer had begun, §10.5), and its policy
    // says what follows: no answer reached the caller.
    return (
      ownAbort(request) || unreadBody('The response body', response, sending.spec, scope, cause)
    );
  }
  if (read.truncated) return answer;
  // The gateway has finished this request: refusing its answer cuts nothing.
  sending.answerStatus.readToEnd = true;
  // (Asked as text, a transcript: no parse for it, but an error object is the failure still.)
  if (!asksJson(sending.spec.accept)) {
    return reportedInText(response, read.text, config, request.requestedModel) ?? answer;
  }
  // Parsed here, once (its reader takes the parse): a body that is not JSON is the attempt's
  // failure, for its policy to say what follows (another model asked: §4.7), as a stream's
  // unreadable event is.
  const { headers, status } = response;
  const parsed = parsedWholeBody(read.text, headers, status, sending.spec, config);
  if (isGatewayError(parsed)) return parsed;
  const kept: ParsedBodyRead = { text: read.text, truncated: false, parsed };
  answer.body = kept;
  // A failure reported instead of an answer is the attempt's, retryable or not: its policy says
  // what follows (sent again, another model asked, or the call's error).
  if (parsed.plainText) return answer;
  return (
    reportedInstead(response, parsed.data, read.text, config, request.requestedModel) ?? answer
  );
}

/**
 * The failure a body asked as text reports instead of an answer: a gateway error object (labelled
 * JSON or `text/plain`) is no transcript. Parsed only when it may be one (it names `"error"`).
 */
function reportedInText(
  response: Response,
  text: string,
  config: SendConfig,
  requestedModel: string | undefined,
): GatewayError | undefined {
  if (!text.includes('"error"')) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  return reportedInstead(response, data, text, config, requestedModel);
}

/** A request whose answer its reader parses as JSON: `transport.text` asks for another type. */
function asksJson(accept: string | undefined): boolean {
  return accept === undefined || accept.includes('json');
}

/**
 * Whether a whole answer may be a JSON error object: labelled JSON, or not labelled at all or as
 * `text/plain` (some servers label their JSON so); a body of any other type (an HTML page) is not.
 */
function mayBeJson(headers: Headers): boolean {
  const type = (headers.get('content-type') ?? '').trim().toLowerCase();
  return type === '' || type.includes('json') || type.startsWith('text/plain');
}

/**
 * The failure a whole body reports instead of an answer (an error object with no `choices` nor
 * `data`), read as its reader reads it (unusable-answer.ts: code, words, Retry-After, the kept
 * body), and retryable by its code as no answer; undefined when the body is no such object.
 */
function reportedInstead(
  response: Response,
  data: unknown,
  text: string,
  config: SendConfig,
  requestedModel: string | undefined,
): GatewayError | undefined {
  const { status, headers } = response;
  const error = failureInsteadOfAnswer(config, { data, status, text, headers }, requestedModel);
  if (error === undefined || error.code === 'invalid_response') return undefined;
  return reportedInsteadOfContent(error, headers, config.maxRetryAfterMs);
}
