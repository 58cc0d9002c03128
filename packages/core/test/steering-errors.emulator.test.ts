import { inspect } from 'node:util';
import { caught, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayError } from '../src/errors/errors';
import { isGatewayError } from '../src/index';
import { clientOn, DEFAULT_KEYS, hi, slowCatalogGateway } from './helpers';

// The errors of a steered call (docs/gateway-protocol.md §4.7): each carries its route, the
// models it skipped and tried and how each failed, its last hop the failure that ended the call;
// its options are checked before anything is sent; its deadline is the call's own.

const weather = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
};

afterEach(() => {
  vi.useRealTimers();
});

describe('every error of a steered call carries its route', () => {
  it("a caller error on the first model: the route ends with that hop and the failure's code", async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'upstream_json', model: 'community/general' });
    const error = await caught(
      () => client.chat(hi(), { fallbackModels: ['community/plain'] }),
      isGatewayError,
    );
    expect(error.code).toBe('upstream_error');
    expect(error.route).toEqual({
      requested: ['community/general', 'community/plain'],
      hops: [{ model: 'community/general', outcome: 'ended', code: 'upstream_error' }],
    });
  });

  it('every listed model failing: the message names each model and its failure, the code the last one', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetries: 0 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'model_busy', model: 'community/general', retryAfter: 3600 });
    emulator.injectFault({ fault: 'service_unavailable', model: 'community/plain' });
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/streamer' });
    const error = await caught(
      () => client.chat(hi(), { fallbackModels: ['community/plain', 'community/streamer'] }),
      isGatewayError,
    );
    // The failure that ended the call: the last model's.
    expect(error.code).toBe('all_providers_failed');
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/^Every model tried failed \(3 attempts\): /);
    expect(error.message).toContain('"community/general": model_busy');
    expect(error.message).toContain('"community/plain": provider_unavailable');
    expect(error.message).toContain('"community/streamer": all_providers_failed');
    expect(error.route).toEqual({
      requested: ['community/general', 'community/plain', 'community/streamer'],
      hops: [
        { model: 'community/general', outcome: 'failed', reason: 'model_busy' },
        { model: 'community/plain', outcome: 'failed', reason: 'provider_unavailable' },
        { model: 'community/streamer', outcome: 'failed', reason: 'all_providers_failed' },
      ],
    });
    expect(error.toJSON().route).toEqual(error.route);
  });

  it('a refusal before any request: the route holds the skips', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const error = await caught(
      () =>
        client.chat(
          { ...hi('community/plain'), tools: [weather] },
          { fallbackModels: ['community/nope'] },
        ),
      isGatewayError,
    );
    expect(error.code).toBe('no_model_can_serve');
    expect(error.route).toEqual({
      requested: ['community/plain', 'community/nope'],
      hops: [
        { model: 'community/plain', outcome: 'skipped', reason: 'missing_capability' },
        { model: 'community/nope', outcome: 'skipped', reason: 'not_in_catalog' },
      ],
    });
    expect(emulator.counters.requests.chat ?? 0).toBe(0);
  });

  it("the call's deadline during the walk: the route ends with the timeout", async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'slow_headers', model: 'community/general', ms: 20_000 });
    await client.models();
    const error = await caught(
      () => client.chat(hi(), { fallbackModels: ['community/plain'], timeoutMs: 300 }),
      isGatewayError,
    );
    expect(error.code).toBe('timeout');
    expect(error.route?.hops.at(-1)).toEqual({
      model: 'community/general',
      outcome: 'ended',
      code: 'timeout',
    });
  });

  it('a call steered by a stall timeout alone: its stall carries the route too', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetries: 0 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/general', ms: 20_000 });
    const error = await caught(async () => {
      const stream = await client.chatStream(hi(), { firstChunkTimeoutMs: 100 });
      await stream.result();
    }, isGatewayError);
    expect(error).toMatchObject({ code: 'timeout', stall: { phase: 'first-chunk' } });
    expect(error.route).toEqual({
      requested: ['community/general'],
      hops: [{ model: 'community/general', outcome: 'failed', reason: 'first_chunk_stall' }],
    });
  });

  it('a stream failing after it was handed over: the route ends with its failure', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    emulator.injectFault({
      fault: 'stall_stream',
      model: 'community/general',
      afterChunks: 3,
      ms: 20_000,
    });
    const stream = await client.chatStream(hi('community/general', 'a b c d e f'), {
      fallbackModels: ['community/streamer'],
      chunkTimeoutMs: 100,
    });
    const error = await caught(() => stream.result(), isGatewayError);
    expect(error).toMatchObject({ code: 'timeout', stall: { phase: 'between-chunks' } });
    expect(error.route).toEqual({
      requested: ['community/general', 'community/streamer'],
      hops: [{ model: 'community/general', outcome: 'ended', code: 'timeout' }],
    });
    // The stream's own route says who answered.
    expect(stream.route.answeredBy).toBe('community/general');
    // A steered stream the caller cancels: its `aborted` has the route too.
    const cancelled = await client.chatStream(hi(), { fallbackModels: ['community/streamer'] });
    await cancelled.cancel();
    const aborted = await caught(() => cancelled.result(), isGatewayError);
    expect(aborted.code).toBe('aborted');
    expect(aborted.route?.hops.at(-1)).toEqual({
      model: 'community/general',
      outcome: 'ended',
      code: 'aborted',
    });
  });

  it('an answer of the wrong shape: its invalid_response carries the route', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, {
      fetch: async (input, init) => {
        if (!String(input).endsWith('/chat/completions'))
          return gateway.emulator.fetch(input, init);
        return Response.json({ choices: [{ index: 0 }] });
      },
    });
    const error = await caught(
      () => client.chat(hi(), { fallbackModels: ['community/plain'] }),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_response');
    expect(error.route).toEqual({
      requested: ['community/general', 'community/plain'],
      hops: [{ model: 'community/general', outcome: 'ended', code: 'invalid_response' }],
    });
  });

  it("a walk's timeout names the call's own deadline, its catalog read counted in it", async () => {
    // The deadline is the subject: fake timers move it (core reads performance.now()).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { client, emulator } = await slowCatalogGateway();
    const failed = caught(
      () => client.chat(hi(), { fallbackModels: ['community/plain'], timeoutMs: 2_000 }),
      isGatewayError,
    );
    await vi.advanceTimersByTimeAsync(2_000);
    const error = await failed;
    expect(error.code).toBe('timeout');
    // Not what the read left of it (about 1700 ms): the deadline the caller gave.
    expect(error.message).toContain('within its deadline of 2000 ms');
    expect(emulator.counters.requests.models).toBe(1);
    expect(emulator.counters.requests.chat).toBe(1);
  });
});

describe('steering options checked before anything is sent', () => {
  // biome-ignore lint/suspicious/noSparseArray: holes are the case
  const holes = [, 'community/plain'];
  it.each([
    ['a string', 'community/plain', 'fallbackModels'],
    ['a hole', holes, 'fallbackModels[0]'],
    ['new Array(2)', new Array(2), 'fallbackModels[0]'],
    ['a repeated id', ['community/plain', 'community/plain'], 'fallbackModels[1]'],
    ["the call's own model", ['community/plain', 'community/general'], 'fallbackModels[1]'],
  ])(
    'refuses fallbackModels with %s: invalid_request_error, no catalog read, no request',
    async (_name, fallbackModels, field) => {
      const gateway = await emulate();
      const client = clientOn(gateway);
      const { emulator } = gateway;
      for (const call of [
        () => client.chat(hi(), { fallbackModels: fallbackModels as string[] }),
        () => client.chatStream(hi(), { fallbackModels: fallbackModels as string[] }),
      ]) {
        const error = await caught(call, isGatewayError);
        expect(error).toMatchObject({ code: 'invalid_request_error', field });
        expect(error.message).toContain(`${field} (call option)`);
      }
      expect(emulator.counters.requests.models ?? 0).toBe(0);
      expect(emulator.counters.requests.chat ?? 0).toBe(0);
    },
  );
});

describe('a key pasted into fallbackModels', () => {
  const KEY = DEFAULT_KEYS.full;
  const leaks = (text: string) => text.includes(KEY);
  const everywhere = (error: GatewayError) =>
    [
      error.message,
      String(error.stack),
      JSON.stringify(error),
      JSON.stringify(error.toJSON()),
      inspect(error, { showHidden: true, depth: 12, getters: true }),
    ].join('\n');

  it('is redacted from skipped[], route, toJSON() and util.inspect of a refusal', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const error = await caught(
      () => client.chat({ ...hi('community/plain'), tools: [weather] }, { fallbackModels: [KEY] }),
      isGatewayError,
    );
    expect(error.code).toBe('no_model_can_serve');
    expect(error.skipped?.map((skip) => skip.model)).toEqual(['community/plain', '[redacted]']);
    expect(error.skipped?.[1]?.detail).toContain('[redacted]');
    expect(error.route?.requested).toEqual(['community/plain', '[redacted]']);
    expect(error.route?.hops[1]).toMatchObject({ model: '[redacted]', outcome: 'skipped' });
    expect(leaks(everywhere(error))).toBe(false);
  });

  it("is redacted from the route of a walk's failure", async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'upstream_json', model: 'community/general' });
    const error = await caught(() => client.chat(hi(), { fallbackModels: [KEY] }), isGatewayError);
    expect(error.code).toBe('upstream_error');
    expect(error.route?.requested).toEqual(['community/general', '[redacted]']);
    expect(leaks(everywhere(error))).toBe(false);
  });
});
