// docs/gateway-protocol.md §10.4 (`invalid_response`, `invalid_structured_output`).
import type { InvalidStructuredOutput } from '../protocol/chat-route';
import { GatewayError } from './errors';

/** `invalid_response`: a 2xx answer the client cannot read (not JSON, the wrong shape, …). */
export function invalidResponse(
  message: string,
  extra: {
    status?: number;
    body?: string;
    requestedModel?: string;
    cause?: unknown;
    data?: unknown;
  } = {},
): GatewayError {
  return new GatewayError({ code: 'invalid_response', message, ...extra });
}

/**
 * `invalid_response` for a 2xx JSON answer of the wrong shape, with its raw body (the key
 * redacted by `redact`). The parsed `data` is kept only when the body did not echo the key.
 */
export function invalidAnswer(
  redact: (text: string) => string,
  message: string,
  answer: { data: unknown; status: number; text: string },
  requestedModel?: string,
): GatewayError {
  const body = redact(answer.text);
  return invalidResponse(message, {
    status: answer.status,
    body,
    data: body === answer.text ? answer.data : undefined,
    requestedModel,
  });
}

/** Issues quoted in the message of an `invalid_structured_output` error (all are on the error). */
const ISSUES_IN_MESSAGE = 3;

/**
 * `invalid_structured_output` (docs/gateway-protocol.md §4.8): a 2xx answer whose structured
 * output is not JSON, is not where its method puts it, or breaks the schema. The message names the
 * model, the method and the first issues; the error keeps the whole text and every issue.
 */
export function invalidStructuredOutput(
  model: string,
  output: InvalidStructuredOutput,
): GatewayError {
  const quoted = output.issues
    .slice(0, ISSUES_IN_MESSAGE)
    .map(({ message, path }) => (path ? `${path}: ${message}` : message));
  const more = output.issues.length - quoted.length;
  const tail = more > 0 ? `; and ${more} more` : '';
  return new GatewayError({
    code: 'invalid_structured_output',
    message: `${model} answered structured output (method ${output.method}) that fails its check: ${quoted.join('; ')}${tail}`,
    model,
    invalidOutput: output,
  });
}
