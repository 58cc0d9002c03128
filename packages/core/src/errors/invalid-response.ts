// docs/gateway-protocol.md §10.4 (`invalid_response`).
import { GatewayError, type GatewayErrorCode, type GatewayErrorOptions } from './errors';
import { responseHeadersOf } from './response-headers';

/**
 * `invalid_response`: a 2xx answer the client cannot read (not JSON, the wrong shape, …), with
 * `extra` fields (a failure the answer reported instead: its `code` and words in their place).
 */
export function invalidResponse(
  message: string,
  extra: Partial<GatewayErrorOptions> = {},
): GatewayError {
  return new GatewayError({ code: 'invalid_response', message, ...extra });
}

/**
 * `invalid_response` for a 2xx JSON answer of the wrong shape, with its raw body and its headers
 * (the key redacted by `redact`). The parsed `data` is kept only when the body did not echo the
 * key. A failure the body `reported` instead of an answer is that error (its code and words, and
 * the answer's Retry-After).
 */
export function invalidAnswer(
  redact: (text: string) => string,
  message: string,
  answer: { data: unknown; status: number; text: string; headers?: Headers },
  requestedModel?: string,
  reported?: { code: GatewayErrorCode; message: string; type?: string; retryAfterMs?: number },
): GatewayError {
  const body = redact(answer.text);
  const data = body === answer.text ? answer.data : undefined;
  return invalidResponse(message, {
    status: answer.status,
    body,
    data,
    responseHeaders: answer.headers && responseHeadersOf(answer.headers, redact),
    requestedModel,
    ...reported,
  });
}
