import { caught, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../src/index';
import { isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

describe('retries', () => {
  it.each([
    [
      'waits Retry-After on 429, then retries',
      'rate_limit' as const,
      3,
      async (client: GatewayClient) =>
        (await client.chat(hi())).response.choices[0]?.message.content,
    ],
    [
      'honours Retry-After for model_busy and on streams before the first byte',
      'model_busy' as const,
      2,
      async (client: GatewayClient) => (await (await client.chatStream(hi())).result()).text,
    ],
  ])('%s', async (_name, fault, retryAfter, answer) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    emulator.injectFault({ fault, endpoint: 'chat', times: 1, retryAfter });
    const call = answer(client);
    await vi.advanceTimersByTimeAsync(retryAfter * 1000 - 1);
    expect(emulator.counters.requests.chat).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toBe('Echo: hello there');
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('a per-call maxRetries overrides the client option, for chat, streams and services', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetries: 3 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat' });
    expect((await caught(() => client.chat(hi(), { maxRetries: 0 }), isGatewayError)).code).toBe(
      'all_providers_failed',
    );
    expect(emulator.counters.requests.chat).toBe(1);
    await caught(() => client.chatStream(hi(), { maxRetries: 1 }), isGatewayError);
    expect(emulator.counters.requests.chat).toBe(3);
    await caught(() => client.chat(hi()), isGatewayError);
    expect(emulator.counters.requests.chat).toBe(7);
    emulator.injectFault({ fault: 'service_unavailable', endpoint: 'translations' });
    await caught(
      () => client.translate({ input: 'hi', target_language: 'uk' }, { maxRetries: 1 }),
      isGatewayError,
    );
    expect(emulator.counters.requests.translations).toBe(2);
    const noFault = await emulate();
    noFault.emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat', times: 2 });
    const noRetries = clientOn(noFault, { maxRetries: 0 });
    expect((await noRetries.chat(hi(), { maxRetries: 2 })).response.choices).toHaveLength(1);
    expect(noFault.emulator.counters.requests.chat).toBe(3);
  });

  it('refuses a per-call maxRetries that is not an integer ≥ 0, sending nothing', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    for (const maxRetries of [-1, 1.5, Number.NaN]) {
      const error = await caught(() => client.chat(hi(), { maxRetries }), isGatewayError);
      expect(error.code).toBe('invalid_request_error');
      expect(error.message).toContain('maxRetries');
    }
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('fails at once, not retryable, with retryAfterMs when Retry-After exceeds maxRetryAfterMs', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetryAfterMs: 5_000 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', retryAfter: 120 });
    const error = await caught(() => client.chat(hi()), isGatewayError);
    expect(error.code).toBe('client_concurrency_exceeded');
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(120_000);
    // The transport retries exactly what is retryable: a wait past maxRetryAfterMs is not.
    expect(error.isRetryable).toBe(false);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('fails at once when Retry-After would outlast the deadline', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { timeoutMs: 10_000 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'model_busy', endpoint: 'chat', retryAfter: 20 });
    const error = await caught(() => client.chat(hi()), isGatewayError);
    expect(error.code).toBe('model_busy');
    expect(error.retryAfterMs).toBe(20_000);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('gives up after maxRetries and returns the last error', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetries: 1 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'model_busy', endpoint: 'chat', retryAfter: 1 });
    const call = caught(() => client.chat(hi()), isGatewayError);
    await vi.advanceTimersByTimeAsync(1000);
    const error = await call;
    expect(error.code).toBe('model_busy');
    expect(error.retryAfterMs).toBe(1000);
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it.each([
    ['bad_gateway', 'all_providers_failed'],
    ['service_unavailable', 'provider_unavailable'],
    ['gateway_timeout', 'request_timeout'],
  ])('retries %s with backoff and succeeds', async (faultName, code) => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetries: 2 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: faultName as 'bad_gateway', endpoint: 'chat', times: 2 });
    await expect(client.chat(hi())).resolves.toBeTruthy();
    expect(emulator.counters.requests.chat).toBe(3);
    emulator.injectFault({ fault: faultName as 'bad_gateway', endpoint: 'chat', times: 3 });
    expect((await caught(() => client.chat(hi()), isGatewayError)).code).toBe(code);
  });

  it('backs off exponentially (fake timers)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetries: 2, retryBaseDelayMs: 100 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat', times: 2 });
    const call = client.chat(hi());
    await vi.advanceTimersByTimeAsync(99);
    expect(emulator.counters.requests.chat).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(emulator.counters.requests.chat).toBe(2);
    await vi.advanceTimersByTimeAsync(199);
    expect(emulator.counters.requests.chat).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(emulator.counters.requests.chat).toBe(3);
    vi.restoreAllMocks();
  });

  it('retries a stream that breaks before its first byte, never one that delivered data', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'stream_cut', endpoint: 'chat', afterChunks: 0, times: 1 });
    const stream = await client.chatStream(hi());
    expect((await stream.result()).text).toBe('Echo: hello there');
    expect(emulator.counters.requests.chat).toBe(2);
    // (Its first chunk is role-only: the cut after the second, its first content, is past retrying.)
    emulator.injectFault({ fault: 'stream_cut', endpoint: 'chat', afterChunks: 2, times: 1 });
    const cut = await client.chatStream(hi());
    expect((await caught(() => cut.result(), isGatewayError)).code).toBe('stream_incomplete');
    expect(emulator.counters.requests.chat).toBe(3);
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await client.budget.whenIdle();
    expect(client.budget.isIdle).toBe(true);
  });

  it('does not retry other 4xx', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    // (Capabilities given, wrongly: core's gate lets the calls through, the gateway refuses them.)
    const streaming = { capabilities: ['chat', 'streaming'] };
    const refused = await caught(
      () => client.chatStream(hi('community/plain'), streaming),
      isGatewayError,
    );
    expect(refused).toMatchObject({ code: 'unsupported_model_capability', status: 400 });
    const missing = await caught(
      () => client.chat(hi('nope/none'), { capabilities: ['chat'] }),
      isGatewayError,
    );
    expect(missing).toMatchObject({ code: 'model_not_found', status: 404 });
    const upstream = await caught(
      () => client.chat(hi(), { headers: { 'X-Emulator-Fault': 'upstream_json' } }),
      isGatewayError,
    );
    expect(upstream.status).toBe(400);
    expect(emulator.counters.requests.chat).toBe(3);
  });
});
