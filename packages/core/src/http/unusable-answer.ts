// docs/gateway-protocol.md §5.3 (an error in a 200 answer), §10.3 (raw bodies kept, bounded),
// §10.4 (`invalid_response`).
import type { GatewayError } from '../errors/errors';
import { invalidAnswer } from '../errors/invalid-response';
import { keptErrorBody } from './kept-error-body';
import { reportedFailure } from './reported-failure';
import { parseRetryAfter } from './retry-policy';

/** What the error of an answer needs of its client: redaction and `maxErrorBodyBytes`. */
export interface AnswerErrorBounds {
  redact(text: string): string;
  readonly maxErrorBodyBytes: number;
}

/**
 * The error of a 2xx JSON answer that cannot be used (`message`: why), the same for chat and the
 * services: a body that is an error object (and no answer) is that error (§5.3: its code, words
 * and Retry-After, read from the whole body, so they do not depend on its length), else
 * `invalid_response`. Its raw body is kept as an error answer's is: up to `maxErrorBodyBytes`, the
 * cut marked, its parsed data only when kept whole.
 */
export function unusableAnswer(
  client: AnswerErrorBounds,
  message: string,
  answer: { data: unknown; status: number; text: string; headers: Headers },
  requestedModel?: string,
): GatewayError {
  const reported = reportedFailure(answer.data, answer.text);
  // (With its Retry-After, as an error status's and a stream's: the same body either way.)
  const retryAfterMs = reported && parseRetryAfter(answer.headers.get('retry-after'));
  const text = keptErrorBody(answer.text, client.maxErrorBodyBytes);
  const kept = text === answer.text ? answer : { ...answer, text, data: undefined };
  return invalidAnswer(
    (raw) => client.redact(raw),
    message,
    kept,
    requestedModel,
    reported && { ...reported, retryAfterMs },
  );
}

/**
 * The failure a whole 2xx JSON answer (`data`, parsed from `text`) reports instead of an answer:
 * an error object with no `choices` nor `data` whose code and words can be read, as
 * `unusableAnswer` reads it — the one rule of a body that is a failure, for the attempt that may
 * retry it (reported-in-answer.ts) and the read that reports the call's end (whole-answer.ts).
 * Undefined when the body is an answer, or no such object.
 */
export function failureInsteadOfAnswer(
  client: AnswerErrorBounds,
  answer: { data: unknown; status: number; text: string; headers: Headers },
  requestedModel?: string,
): GatewayError | undefined {
  const { data } = answer;
  if (typeof data !== 'object' || data === null) return undefined;
  if ('choices' in data || 'data' in data) return undefined;
  if (reportedFailure(data, answer.text) === undefined) return undefined;
  return unusableAnswer(client, 'The answer is an error object', answer, requestedModel);
}
