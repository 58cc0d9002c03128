import { describe, expect, it } from 'vitest';
import {
  CLIENT_ERROR_CODES,
  GATEWAY_ERROR_CODES,
  GatewayError,
  type GatewayErrorCode,
  type GatewayErrorOptions,
  gatewayFailure,
} from './errors';
import { type FailureContext, isRetryableFailure, isWorthNewCall } from './retryable-failure';

type Case = [
  string,
  { code: GatewayErrorCode; status?: number; retryAfterMs?: number },
  FailureContext,
  boolean,
];

describe('isRetryableFailure', () => {
  it.each<Case>([
    ['no answer: a network error', { code: 'network_error' }, {}, true],
    ['no answer: a retryable code', { code: 'provider_unavailable' }, {}, true],
    ['no answer: a refusal', { code: 'invalid_request_error' }, {}, false],
    ['no answer: a deadline', { code: 'timeout' }, {}, false],
    ['a 503', { code: 'provider_unavailable', status: 503 }, {}, true],
    // A held structured stream ended short: its 2xx answer had begun (it fails over, not retried).
    ['a 2xx stream ended short', { code: 'stream_incomplete', status: 200 }, {}, false],
    ['a 502 the gateway did not describe', { code: 'upstream_error', status: 502 }, {}, true],
    ['a 400', { code: 'invalid_request_error', status: 400 }, {}, false],
    ['a 404', { code: 'model_not_found', status: 404 }, {}, false],
    ['a 429 without Retry-After', { code: 'model_busy', status: 429 }, {}, true],
    ['a 429 asking for 60 s', { code: 'model_busy', status: 429, retryAfterMs: 60_000 }, {}, true],
    [
      'a 429 asking for more than 60 s',
      { code: 'model_busy', status: 429, retryAfterMs: 60_001 },
      {},
      false,
    ],
    [
      "a 429 asking for more than the client's maxRetryAfterMs",
      { code: 'client_concurrency_exceeded', status: 429, retryAfterMs: 10_000 },
      { maxRetryAfterMs: 5_000 },
      false,
    ],
    [
      "a 429 within the client's maxRetryAfterMs",
      { code: 'client_concurrency_exceeded', status: 429, retryAfterMs: 4_000 },
      { maxRetryAfterMs: 5_000 },
      true,
    ],
    [
      'an error answer whose body could not be read, by its status',
      { code: 'network_error', status: 503 },
      {},
      true,
    ],
    ['a 2xx body that failed while read', { code: 'network_error', status: 200 }, {}, false],
    ['an error event after the 200 (§5.3)', { code: 'model_busy', status: 200 }, {}, false],
    [
      'a stream lost before its first bytes (§5.5)',
      { code: 'network_error', status: 200 },
      { beforeFirstBytes: true },
      true,
    ],
    [
      'a 2xx answer that cannot be read',
      { code: 'invalid_response', status: 200 },
      { beforeFirstBytes: true },
      false,
    ],
  ])('%s', (_name, failure, context, retryable) => {
    expect(isRetryableFailure(failure, context)).toBe(retryable);
    expect(gatewayFailure({ ...failure, message: 'm' }, context).isRetryable).toBe(retryable);
  });
});

describe('without an answer, by code', () => {
  // As the README's table of fields documents them.
  const retryable = new Set<GatewayErrorCode>([
    'model_busy',
    'client_concurrency_exceeded',
    'all_providers_failed',
    'provider_unavailable',
    'request_timeout',
    'network_error',
    'client_code_unavailable',
  ]);
  it.each([...GATEWAY_ERROR_CODES, ...CLIENT_ERROR_CODES])('%s', (code) => {
    expect(isRetryableFailure({ code })).toBe(retryable.has(code));
  });
});

describe("GatewayError's isRetryable", () => {
  it.each([
    ['model_busy', 429, true],
    ['invalid_request_error', 400, false],
    ['network_error', undefined, true],
  ] as const)(
    "is the policy's answer from the error's own fields: %s",
    (code, status, retryable) => {
      const error = new GatewayError({ code, message: 'm', status });
      expect(error.isRetryable).toBe(retryable);
      expect(error.toJSON()).toMatchObject({ isRetryable: retryable });
    },
  );

  it('cannot be given by hand: the options have no isRetryable', () => {
    const options: GatewayErrorOptions = {
      code: 'invalid_request_error',
      message: 'm',
      // @ts-expect-error the retry policy alone decides: GatewayErrorOptions has no isRetryable
      isRetryable: true,
    };
    const error = new GatewayError(options);
    expect(error.isRetryable).toBe(false);
  });
});

describe('a stall', () => {
  it('is retryable before the first chunk only', () => {
    expect(isRetryableFailure({ code: 'timeout', stall: { phase: 'first-chunk' } })).toBe(true);
    expect(isRetryableFailure({ code: 'timeout', stall: { phase: 'between-chunks' } })).toBe(false);
  });
});

describe('isWorthNewCall', () => {
  const made = (options: GatewayErrorOptions) => new GatewayError(options);
  it.each<[string, GatewayErrorOptions, boolean]>([
    ['a stream cut mid-answer', { code: 'stream_incomplete', message: 'cut' }, true],
    [
      'a provider error mid-stream',
      { code: 'provider_request_failed', status: 200, message: 'x' },
      true,
    ],
    [
      'a protocol error mid-stream',
      { code: 'provider_protocol_error', status: 200, message: 'x' },
      true,
    ],
    ['a 200 body cut short', { code: 'invalid_response', status: 200, message: 'x' }, true],
    ['a deadline', { code: 'timeout', message: 'late' }, true],
    ['a 503', { code: 'provider_unavailable', status: 503, message: 'x' }, true],
    ['a 400', { code: 'invalid_request_error', status: 400, message: 'x' }, false],
    [
      'a missing capability',
      { code: 'unsupported_model_capability', status: 400, message: 'x' },
      false,
    ],
    ['a wrong key', { code: 'invalid_api_key', status: 401, message: 'x' }, false],
    ['an unknown model', { code: 'model_not_found', status: 404, message: 'x' }, false],
    ['a model server 400', { code: 'upstream_error', status: 400, message: 'x' }, false],
    [
      'a 429 asking for minutes',
      { code: 'model_busy', status: 429, retryAfterMs: 600_000, message: 'x' },
      false,
    ],
    ['an abort', { code: 'aborted', message: 'x' }, false],
    [
      'an off-schema answer',
      { code: 'invalid_structured_output', status: 200, message: 'x' },
      false,
    ],
    ['an answer too large', { code: 'response_too_large', status: 200, message: 'x' }, false],
    ['no model can serve', { code: 'no_model_can_serve', message: 'x' }, false],
    ['a configuration mistake', { code: 'configuration_error', message: 'x' }, false],
  ])('%s', (_, options, worth) => {
    expect(isWorthNewCall(made(options))).toBe(worth);
  });
});
