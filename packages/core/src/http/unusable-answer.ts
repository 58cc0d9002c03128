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
