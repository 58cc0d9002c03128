// docs/gateway-protocol.md §5.3 (an error in a 200 answer), §10.5 (retried as the same failure
// answered with its status).
import { type GatewayError, withFailureContext } from '../errors/errors';
import { tooLarge } from './answer-errors';
import { type AttemptAnswer, ownAbort } from './attempt-policy';
import { declaredLength, readBoundedBody } from './read-bounded-body';
import type { SendConfig, Sending } from './send-once';
import { unusableAnswer } from './unusable-answer';

/**
 * A whole (not streamed) 2xx JSON answer, read within its attempt (its slot held, as its reader
 * would hold it): a body that is a gateway error object and no answer, with a code the retry
 * policy retries (`model_busy`, …: errors/retryable-failure.ts), is the attempt's failure, so the
 * call's policy says what follows, as it would for the same code answered as a status. Asked once
 * the policy took the answer (its `accept`): its first-content clock has stopped.
 * Any other answer is handed on as it came (its body read from a copy), for its reader to read — a
 * non-retryable code in it still fails there, at once, as does a body too large or cut. Other answers (not labelled JSON: audio, text) are handed on unread.
 */
export async function wholeAnswerChecked(
  answer: AttemptAnswer,
  sending: Sending,
  config: SendConfig,
): Promise<AttemptAnswer | GatewayError> {
  const { response } = answer;
  const limit = config.maxResponseBytes;
  const type = response.headers.get('content-type') ?? '';
  if (limit === undefined || response.body === null || !type.includes('json')) return answer;
  // (Too large by its Content-Length: its reader refuses it unread.)
  if ((declaredLength(response.headers) ?? 0) > limit) return answer;
  const { request, scope } = sending;
  const requestedModel = request.requestedModel;
  let text: string;
  try {
    // (A copy read: the answer handed on is the one that came, its headers the same object.)
    const read = await readBoundedBody(response.clone(), limit, scope);
    if (read.truncated) {
      // (Not read further: both copies stop, and the call fails as its reader would fail it.)
      response.body?.cancel().catch(() => {});
      return tooLarge(response, { path: sending.spec.path, requestedModel }, limit);
    }
    text = read.text;
  } catch {
    // (Cut: its reader reads the answer again and fails as it always did.)
    if (scope.aborted) throw scope.error({ requestedModel });
    return ownAbort(request) ?? answer;
  }
  // The gateway has finished this request: refusing its answer cuts nothing.
  sending.answerStatus.readToEnd = true;
  const reported = reportedInstead(response, text, config, requestedModel);
  if (!reported?.isRetryable) return answer;
  response.body?.cancel().catch(() => {});
  return reported;
}

/**
 * The failure a whole body reports instead of an answer (an error object with no `choices` nor
 * `data`), read as its reader reads it (unusable-answer.ts: code, words, Retry-After, the kept
 * body), and retryable by its code as no answer; undefined when the body is no such object.
 */
function reportedInstead(
  response: Response,
  text: string,
  config: SendConfig,
  requestedModel: string | undefined,
): GatewayError | undefined {
  // (Only a body naming `"error"` is parsed here: most answers are not parsed twice.)
  if (!text.includes('"error"')) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const answer = typeof data === 'object' && data !== null && ('choices' in data || 'data' in data);
  if (answer) return undefined;
  const { status, headers } = response;
  const read = { data, status, text, headers };
  const error = unusableAnswer(config, 'The answer is an error object', read, requestedModel);
  if (error.code === 'invalid_response') return undefined;
  return withFailureContext(error, {
    reportedInstead: true,
    maxRetryAfterMs: config.maxRetryAfterMs,
  });
}
