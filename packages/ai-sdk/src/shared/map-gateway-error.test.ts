import {
  APICallError,
  InvalidArgumentError,
  LoadAPIKeyError,
  LoadSettingError,
  NoSuchModelError,
} from '@ai-sdk/provider';
import { GatewayError } from '@infergate/core';
import { callEndedError } from '@infergate/core/internal';
import { describe, expect, it } from 'vitest';
import { mapGatewayError, SETTINGS_CONTEXT } from './map-gateway-error';

const context = {
  url: 'http://gw.test/v1/chat/completions',
  requestBodyValues: { model: 'm' },
  maxRetryAfterMs: 60_000,
};

describe('mapGatewayError', () => {
  it('maps an HTTP failure to APICallError with status, body, retry-after and the code in data', () => {
    const cause = new GatewayError({
      code: 'model_busy',
      message: 'busy',
      status: 429,
      retryAfterMs: 1500,
      responseHeaders: { 'retry-after': '1.5', 'x-service-model': 'community/general' },
      body: '{"error":{"code":"model_busy","message":"busy"}}',
      data: { error: { code: 'model_busy', message: 'busy' } },
      requestedModel: 'community/general',
    });
    const mapped = mapGatewayError(cause, context);
    expect(APICallError.isInstance(mapped)).toBe(true);
    const error = mapped as APICallError;
    expect(error.statusCode).toBe(429);
    expect(error.responseHeaders).toEqual({
      'retry-after': '1.5',
      'x-service-model': 'community/general',
    });
    expect(error.responseBody).toBe(cause.body);
    expect(error.url).toBe(context.url);
    expect(error.requestBodyValues).toEqual({ model: 'm' });
    expect(error.cause).toBe(cause);
    expect(error.data).toMatchObject({ code: 'model_busy', requestedModel: 'community/general' });
  });

  it("passes core's retryability through, but not for a Retry-After over maxRetryAfterMs", () => {
    // As core's transport makes them: the retry policy marks the 429 retryable.
    const busy = (retryAfterMs: number) =>
      new GatewayError({
        code: 'model_busy',
        message: 'busy',
        status: 429,
        retryAfterMs,
      });
    expect((mapGatewayError(busy(1000), context) as APICallError).isRetryable).toBe(true);
    expect((mapGatewayError(busy(120_000), context) as APICallError).isRetryable).toBe(false);
    const refused = new GatewayError({ code: 'invalid_request_error', message: 'no', status: 400 });
    expect((mapGatewayError(refused, context) as APICallError).isRetryable).toBe(false);
  });

  it('maps a model_not_found from the catalog look-up (no response) to NoSuchModelError', () => {
    const cause = new GatewayError({
      code: 'model_not_found',
      message: 'Model "a/b" is not in this key\'s model list (GET /models). Close matches: a/c.',
      model: 'a/b',
    });
    const mapped = mapGatewayError(cause, { ...context, modelType: 'embeddingModel' });
    expect(NoSuchModelError.isInstance(mapped)).toBe(true);
    expect((mapped as NoSuchModelError).modelType).toBe('embeddingModel');
    expect((mapped as NoSuchModelError).message).toBe(cause.message);
    expect((mapped as Error).cause).toBe(cause);
    const fromGateway = new GatewayError({ code: 'model_not_found', message: 'no', status: 404 });
    expect(APICallError.isInstance(mapGatewayError(fromGateway, context))).toBe(true);
  });

  it('maps client-side validation to InvalidArgumentError naming the field', () => {
    const mapped = mapGatewayError(
      new GatewayError({
        code: 'invalid_request_error',
        message: 'input: 5000 bytes, limit 4096',
        field: 'input',
      }),
      context,
    );
    expect(InvalidArgumentError.isInstance(mapped)).toBe(true);
    expect((mapped as InvalidArgumentError).argument).toBe('input');
  });

  // The field decides, not the wording: the baseURL message mentions an API key.
  it.each([
    ['apiKey', 'No key given', LoadAPIKeyError],
    ['baseURL', 'No API key here, just a URL', LoadSettingError],
  ])('maps a configuration error on %s to the AI SDK load error', (field, message, expected) => {
    const mapped = mapGatewayError(
      new GatewayError({ code: 'configuration_error', message, field }),
      context,
    );
    expect(expected.isInstance(mapped)).toBe(true);
  });

  // `headers` is both a call's option and a provider setting: where it was given decides.
  it("maps a configuration error on a call's option to InvalidArgumentError, a setting's to LoadSettingError", () => {
    const cause = new GatewayError({
      code: 'configuration_error',
      message: 'no',
      field: 'headers',
    });
    const call = mapGatewayError(cause, context);
    expect(InvalidArgumentError.isInstance(call)).toBe(true);
    expect([(call as InvalidArgumentError).argument, (call as Error).cause]).toEqual([
      'headers',
      cause,
    ]);
    expect(LoadSettingError.isInstance(mapGatewayError(cause, SETTINGS_CONTEXT))).toBe(true);
  });

  it('maps aborts to an AbortError', () => {
    const mapped = mapGatewayError(
      new GatewayError({ code: 'aborted', message: 'aborted' }),
      context,
    );
    expect((mapped as Error).name).toBe('AbortError');
  });

  it("gives a caller's AbortSignal.timeout() back as its own reason; core's timeouts stay APICallError", () => {
    // As core builds them (callEndedError): the caller's TimeoutError reason is the cause.
    const reason = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(mapGatewayError(callEndedError(reason), context)).toBe(reason);
    // Core's own deadline (timeoutMs), after a failed attempt or not, and a stall: APICallError.
    const failed = new GatewayError({ code: 'model_busy', message: 'busy', status: 429 });
    for (const own of [
      callEndedError(undefined, { timeoutMs: 50 }),
      callEndedError(failed, { timeoutMs: 50 }),
      new GatewayError({
        code: 'timeout',
        message: 'stalled',
        stall: { phase: 'between-chunks', waitedMs: 20, limitMs: 10 },
        cause: reason,
      }),
    ]) {
      const mapped = mapGatewayError(own, context);
      expect(APICallError.isInstance(mapped)).toBe(true);
      expect((mapped as APICallError).data).toMatchObject({ code: 'timeout' });
    }
  });

  it('leaves other errors alone', () => {
    const other = new TypeError('x');
    expect(mapGatewayError(other, context)).toBe(other);
  });
});
