import { describe, expect, it } from 'vitest';
import { parseErrorResponse } from './parse-error-response';

const json = { 'content-type': 'application/json' };

describe('parseErrorResponse', () => {
  it("an OpenAI-style body without the gateway's code: its error.message, status, type and raw body", () => {
    const text = JSON.stringify({
      error: {
        message: 'max_tokens is too large',
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    const error = parseErrorResponse(400, new Headers(json), text);
    expect(error).toMatchObject({
      code: 'upstream_error',
      message: 'max_tokens is too large',
      type: 'invalid_request_error',
      status: 400,
      body: text,
      isRetryable: false,
    });
    expect(error.data).toEqual(JSON.parse(text));
    // The status still decides retrying: a 503 with the same shape is retryable.
    expect(parseErrorResponse(503, new Headers(json), text).isRetryable).toBe(true);
  });

  it("another service's code keeps upstream_error with the body's message", () => {
    const text = '{"error":{"message":"slow down","code":"rate_limited"}}';
    const error = parseErrorResponse(429, new Headers(json), text);
    expect(error).toMatchObject({ code: 'upstream_error', message: 'slow down', status: 429 });
  });

  it('the key is redacted from a message that echoes it', () => {
    const secret = 'sk-echoed-secret-987654';
    const text = JSON.stringify({ error: { message: `Incorrect API key: ${secret}`, code: null } });
    const error = parseErrorResponse(401, new Headers(json), text, { secret });
    expect(error.message).toMatch(/^Incorrect API key: /);
    expect(error.message).not.toContain(secret);
    expect(error.body).not.toContain(secret);
  });

  it("the gateway's codes and bodies without error.message are read as before", () => {
    const gateway = '{"error":{"code":"model_not_found","message":"no such model","type":"x"}}';
    expect(parseErrorResponse(404, new Headers(json), gateway)).toMatchObject({
      code: 'model_not_found',
      message: 'no such model',
    });
    const fastapi = '{"detail":[{"msg":"field required"}]}';
    expect(parseErrorResponse(422, new Headers(json), fastapi).message).toBe(
      `Gateway answered HTTP 422: ${fastapi}`,
    );
    const blank = '{"error":{"message":" ","code":null}}';
    expect(parseErrorResponse(400, new Headers(json), blank).message).toBe(
      `Gateway answered HTTP 400: ${blank}`,
    );
  });
});
