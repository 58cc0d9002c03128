import { inspect } from 'node:util';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it, vi } from 'vitest';
import { createGatewayClient, type GatewayEvent, isGatewayError } from '../src/index';
import { clientOn, DEFAULT_KEYS, hi } from './helpers';

const fault = (name: string) => ({ headers: { 'X-Emulator-Fault': name } });

describe('stream failures', () => {
  it.each([
    ['stream_error', 'provider_request_failed'],
    ['stream_cut', 'stream_incomplete'],
    ['no_finish', 'stream_incomplete'],
    ['malformed_event', 'provider_protocol_error'],
  ])('%s raises %s and releases the slot', async (faultName, code) => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const stream = await client.chatStream(
      hi('community/general', 'a b c d e f g'),
      fault(faultName),
    );
    const seen: string[] = [];
    const error = await caught(async () => {
      for await (const event of stream) seen.push(event.type);
    }, isGatewayError);
    expect(error.code).toBe(code);
    expect(error.requestedModel).toBe('community/general');
    expect(error.isRetryable).toBe(false);
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await client.budget.whenIdle();
    expect(client.budget.isIdle).toBe(true);
    // result() rejects with the same error, and nothing was retried once data had arrived.
    await expect(stream.result()).rejects.toBe(error);
    expect(emulator.counters.requests.chat).toBe(1);
    expect(emulator.counters.inflight[DEFAULT_KEYS.full] ?? 0).toBe(0);
  });

  it('a stream cut after its content: the attempt answered (its response ok), the call failed', async () => {
    // (In process, the content and the cut come in one read: the body failed before its bytes
    // were decoded; it was lost, not cut by us, so the attempt is not reported aborted.)
    const events: GatewayEvent[] = [];
    const cut = { fault: 'stream_cut', model: 'community/general', afterChunks: 3 } as const;
    const gateway = await emulate({ scenario: { faults: [cut] } });
    const client = clientOn(gateway, { onEvent: (event) => events.push(event) });
    const stream = await client.chatStream(hi('community/general', 'one two three four five'));
    const error = await caught(async () => {
      for await (const _ of stream);
    }, isGatewayError);
    expect(error.code).toBe('stream_incomplete');
    await client.budget.whenIdle();
    // (The chat's; the gate's catalog read has its own.)
    const response = events.find(
      (event) => event.type === 'response' && event.operation === 'chat',
    );
    expect(response).toMatchObject({ ok: true });
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      ok: false,
      error: { code: 'stream_incomplete' },
    });
  });
});

describe('error bodies', () => {
  it.each([
    ['upstream_html', 502, 'text/html'],
    ['upstream_text', 500, 'text/plain'],
    ['upstream_json', 400, '{"detail"'],
  ])(
    '%s becomes upstream_error with status %i and the raw body',
    async (name, status, bodyPart) => {
      const gateway = await emulate();
      const client = clientOn(gateway, { maxRetries: 0 });
      const error = await caught(() => client.chat(hi(), fault(name)), isGatewayError);
      expect(error.code).toBe('upstream_error');
      expect(error.status).toBe(status);
      expect(typeof error.body).toBe('string');
      if (bodyPart.startsWith('{')) expect(error.body).toContain(bodyPart);
      expect(error.message).toContain(`HTTP ${status}`);
    },
  );

  it('a truncated JSON body is invalid_response', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const error = await caught(() => client.chat(hi(), fault('truncated_json')), isGatewayError);
    expect(error.code).toBe('invalid_response');
    expect(error.status).toBe(200);
    expect(error.body?.length).toBeGreaterThan(0);
  });

  it('gateway errors keep code, status, type and the parsed body', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    // (Capabilities given: the gate lets the unknown id through, so the gateway's 404 is read.)
    const error = await caught(
      () => client.chat(hi('nope/missing'), { capabilities: ['chat'] }),
      isGatewayError,
    );
    expect(error.code).toBe('model_not_found');
    expect(error.status).toBe(404);
    expect(error.data).toMatchObject({ error: { code: 'model_not_found' } });
    expect(error.toJSON()).toMatchObject({
      code: 'model_not_found',
      status: 404,
      isRetryable: false,
    });
  });

  it('keep the response headers they came with (retry-after, x-service-model)', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetries: 0 });
    const error = await caught(
      () => client.chat(hi(), { headers: { 'X-Emulator-Fault': 'rate_limit; retryAfter=7' } }),
      isGatewayError,
    );
    expect(error.code).toBe('client_concurrency_exceeded');
    expect(error.responseHeaders?.['retry-after']).toBe('7');
    expect(error.responseHeaders?.['content-type']).toContain('application/json');
    expect(error.toJSON().responseHeaders).toEqual(error.responseHeaders);
    const html = await caught(() => client.chat(hi(), fault('upstream_html')), isGatewayError);
    expect(html.responseHeaders?.['content-type']).toContain('text/html');
  });

  it('a dropped connection is network_error after maxRetries + 1 attempts', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetries: 2 });
    const { emulator } = gateway;
    const error = await caught(() => client.chat(hi(), fault('drop_connection')), isGatewayError);
    expect(error.code).toBe('network_error');
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(emulator.counters.requests.chat).toBe(3);
  });
});

describe('the API key stays secret', () => {
  const secret = 'sk-very-secret-key-123456';

  it('appears in no message, JSON or inspect output', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    const client = createGatewayClient({
      baseURL: 'https://secret.test',
      apiKey: secret,
      fetch: emulator.fetch,
    });
    const error = await caught(() => client.chat(hi()), isGatewayError);
    expect(error.code).toBe('invalid_api_key');
    for (const text of [
      error.message,
      JSON.stringify(error),
      inspect(error, { depth: 10, showHidden: true }),
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      String(error.stack),
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('an API key that cannot be a header value gives configuration_error without quoting it', async () => {
    const fetch = async () => new Response('{}');
    // Given: refused at creation; from the environment: by the call that reads it.
    const given = await caught(
      async () =>
        createGatewayClient({ baseURL: 'https://k.test', apiKey: 'sk-line\nbreak-secret', fetch }),
      isGatewayError,
    );
    vi.stubEnv('INFERGATE_API_KEY', 'sk-line\nbreak-secret');
    try {
      const client = createGatewayClient({ baseURL: 'https://k.test', fetch });
      const fromEnv = await caught(() => client.models(), isGatewayError);
      for (const error of [given, fromEnv]) {
        expect(error).toMatchObject({ code: 'configuration_error', field: 'apiKey' });
        expect(`${error.message} ${JSON.stringify(error)} ${inspect(error)}`).not.toContain(
          'break-secret',
        );
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('is redacted from response headers that echo it; cookies are left out', async () => {
    const client = createGatewayClient({
      baseURL: 'https://echo-headers.test',
      apiKey: secret,
      maxRetries: 0,
      fetch: async (_input, init) =>
        new Response('{"error":{"code":"invalid_api_key","message":"no"}}', {
          status: 401,
          headers: {
            'x-echo': new Headers(init?.headers).get('authorization') ?? '',
            'set-cookie': 'session=abc',
            'X-Service-Model': 'community/general',
          },
        }),
    });
    const error = await caught(() => client.models(), isGatewayError);
    expect(error.responseHeaders?.['x-echo']).toBe('Bearer [redacted]');
    expect(error.responseHeaders?.['x-service-model']).toBe('community/general');
    expect(error.responseHeaders?.['set-cookie']).toBeUndefined();
    expect(JSON.stringify(error)).not.toContain(secret);
  });

  it('is redacted from response bodies that echo it', async () => {
    const client = createGatewayClient({
      baseURL: 'https://echo.test',
      apiKey: secret,
      fetch: async (_input, init) =>
        new Response(`bad key ${new Headers(init?.headers).get('authorization')}`, { status: 401 }),
    });
    const error = await caught(() => client.models(), isGatewayError);
    expect(error.body).toBe('bad key Bearer [redacted]');
    expect(error.responseHeaders).toBeDefined();
    expect(JSON.stringify(error)).not.toContain(secret);
    expect(isGatewayError(error)).toBe(true);
  });
});
