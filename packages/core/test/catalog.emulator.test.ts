import { caught, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, DEFAULT_KEYS, hi, totalRequests } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

describe('catalog', () => {
  it('lists models and services', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const models = await client.models();
    expect(models.map((m) => m.id)).toContain('community/general');
    const services = await client.services();
    expect(services.map((s) => s.id).sort()).toEqual([
      'embeddings',
      'ocr',
      'speech_to_text',
      'translation',
    ]);
    const engines = await client.embeddingEngines();
    expect(engines.map((e) => e.id).sort()).toEqual(['all-minilm-l6-v2', 'multilingual-e5-base']);
  });

  it('caches, and concurrent callers share one request', async () => {
    const gateway = await emulate({ scenario: { latencyMs: 5 } });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    await Promise.all([
      client.models(),
      client.models(),
      client.model('community/plain'),
      client.models(),
    ]);
    await Promise.all([client.services(), client.embeddingEngines(), client.services()]);
    await client.models();
    expect(emulator.counters.requests.models).toBe(1);
    expect(emulator.counters.requests.capabilities).toBe(1);
  });

  it('expires after catalogTtlMs', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const gateway = await emulate();
    const client = clientOn(gateway, { catalogTtlMs: 1000 });
    const { emulator } = gateway;
    await client.models();
    vi.advanceTimersByTime(999);
    await client.models();
    expect(emulator.counters.requests.models).toBe(1);
    vi.advanceTimersByTime(1);
    await client.models();
    expect(emulator.counters.requests.models).toBe(2);
  });

  it('keeps its age on the monotonic clock: a step of the wall clock neither expires nor extends it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const gateway = await emulate();
    const client = clientOn(gateway, { catalogTtlMs: 60_000 });
    const { emulator } = gateway;
    await client.models();
    vi.setSystemTime(Date.now() + 3_600_000);
    await client.models();
    vi.setSystemTime(Date.now() - 7_200_000);
    await client.models();
    expect(emulator.counters.requests.models).toBe(1);
  });

  it('refreshes after model_not_found or provider_unavailable from the gateway', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    await client.models();
    await caught(() => client.chat(hi('nope/missing')), isGatewayError);
    await client.models();
    expect(emulator.counters.requests.models).toBe(2);
    await caught(
      () => client.chat(hi(), { headers: { 'X-Emulator-Fault': 'service_unavailable' } }),
      isGatewayError,
    );
    await client.models();
    expect(emulator.counters.requests.models).toBe(3);
  });

  it("keeps the catalog through a busy model (model_busy) and a model server's own 503", async () => {
    const gateway = await emulate();
    // A model server's own 503 (not the gateway's code): what an overloaded engine answers.
    const fetch: typeof globalThis.fetch = (input, init) =>
      String(input).endsWith('/chat/completions') && new Headers(init?.headers).has('x-engine-503')
        ? Promise.resolve(new Response('Service Unavailable', { status: 503 }))
        : gateway.connection.fetch(input, init);
    const client = clientOn(gateway, { fetch, maxRetries: 0 });
    const { emulator } = gateway;
    await client.models();
    const busy = await caught(
      () => client.chat(hi(), { headers: { 'X-Emulator-Fault': 'model_busy' } }),
      isGatewayError,
    );
    expect(busy.code).toBe('model_busy');
    const engine = await caught(
      () => client.chat(hi(), { headers: { 'x-engine-503': '1' } }),
      isGatewayError,
    );
    expect([engine.code, engine.status]).toEqual(['upstream_error', 503]);
    await client.chat(hi());
    expect(emulator.counters.requests.models).toBe(1);
  });

  it('one caller aborting does not fail the others sharing the request', async () => {
    const gateway = await emulate({ scenario: { latencyMs: 10 } });
    const client = clientOn(gateway);
    const controller = new AbortController();
    const first = caught(() => client.models({ signal: controller.signal }), isGatewayError);
    const second = client.models();
    controller.abort();
    expect((await first).code).toBe('aborted');
    expect((await second).length).toBeGreaterThan(0);
  });

  it('model() gives model_not_found with close matches, after one refresh', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    await client.models();
    const error = await caught(() => client.model('community/genral'), isGatewayError);
    expect(error.code).toBe('model_not_found');
    expect(error.alternatives?.[0]).toBe('community/general');
    expect(error.message).toContain('community/general');
    expect(emulator.counters.requests.models).toBe(2);
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('remembers a miss for the cache lifetime: no GET /models per call to an unlisted model', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const gateway = await emulate();
    const client = clientOn(gateway, { catalogTtlMs: 1000 });
    const { emulator } = gateway;
    for (let i = 0; i < 5; i++) {
      await client.requireCapabilities('my/laptop-model', ['chat', 'tools']);
      await client.chat(hi('my/laptop-model'));
    }
    expect(emulator.counters.requests.models).toBe(1);
    // An id first missed in a cached list is looked up once more, then remembered.
    for (let i = 0; i < 3; i++)
      await caught(() => client.model('community/genral'), isGatewayError);
    expect(emulator.counters.requests.models).toBe(2);
    // The snapshot expires: the misses go with it.
    vi.advanceTimersByTime(1000);
    await client.resolveModel('my/laptop-model');
    await client.resolveModel('my/laptop-model');
    expect(emulator.counters.requests.models).toBe(3);
    // refreshCatalog() forgets them too.
    client.refreshCatalog();
    await client.resolveModel('my/laptop-model');
    expect(emulator.counters.requests.models).toBe(4);
  });

  it('forgets misses on model_not_found or provider_unavailable from the gateway', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, {
      apiKey: DEFAULT_KEYS.nofallback,
      maxRetries: 0,
    });
    const { emulator } = gateway;
    await client.resolveModel('my/laptop-model');
    await client.resolveModel('my/laptop-model');
    expect(emulator.counters.requests.models).toBe(1);
    expect((await caught(() => client.chat(hi('my/laptop-model')), isGatewayError)).code).toBe(
      'provider_unavailable',
    );
    await client.resolveModel('my/laptop-model');
    expect(emulator.counters.requests.models).toBe(2);
    // A model that came online since is found by the fresh list.
    emulator.scenario.models['my/laptop-model']!.online = true;
    expect(await client.resolveModel('my/laptop-model')).toBeUndefined();
    await caught(() => client.chat(hi('nope/missing')), isGatewayError);
    expect((await client.resolveModel('my/laptop-model'))?.id).toBe('my/laptop-model');
    expect(emulator.counters.requests.models).toBe(3);
  });

  it('requireCapabilities names the model, what is missing and who has it', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const error = await caught(
      () => client.requireCapabilities('combo/t', ['streaming', 'tools', 'json_schema']),
      isGatewayError,
    );
    expect(error.code).toBe('unsupported_model_capability');
    expect(error.model).toBe('combo/t');
    expect(error.missing).toEqual(['streaming', 'json_schema']);
    expect(error.alternatives).toContain('community/general');
    expect(error.alternatives).toContain('combo/stj');
    expect(error.alternatives).not.toContain('combo/st');
    expect(error.message).toContain('combo/t');
    expect(error.message).toContain('streaming, json_schema');
    expect((await client.requireCapabilities('combo/st', ['streaming', 'tools']))?.id).toBe(
      'combo/st',
    );
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('needs given as one string, as documented: both outcomes', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    expect((await client.requireCapabilities('combo/st', 'streaming'))?.id).toBe('combo/st');
    const lacking = await caught(
      () => client.requireCapabilities('combo/t', 'streaming'),
      isGatewayError,
    );
    expect(lacking.code).toBe('unsupported_model_capability');
    expect(lacking.missing).toEqual(['streaming']);
    expect(lacking.alternatives).toContain('combo/st');
    expect(lacking.message).toContain('lacks streaming');
    expect(await client.checkModel('combo/st', 'tools')).toContain('tools');
    const refused = await caught(() => client.checkModel('combo/t', 'json_schema'), isGatewayError);
    expect(refused.code).toBe('unsupported_model_capability');
    expect(refused.missing).toEqual(['json_schema']);
    const known = await caught(
      () => client.checkModel('any/model', 'tools', { known: ['chat'], purpose: 'bindTools' }),
      isGatewayError,
    );
    expect(known.message).toContain('needed for bindTools');
    const wrong = await caught(
      () => client.requireCapabilities('combo/st', 7 as unknown as 'streaming'),
      isGatewayError,
    );
    expect(wrong).toMatchObject({ code: 'invalid_request_error', field: 'needs' });
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('a near miss of a capability, needed or stated, is refused naming the capability', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const needs = await caught(
      () => client.requireCapabilities('combo/st', ['chat', 'tols'] as never),
      isGatewayError,
    );
    expect(needs).toMatchObject({ code: 'invalid_request_error', field: 'needs[1]' });
    expect(needs.message).toContain('"tols" is not a capability — did you mean "tools"?');
    const known = await caught(
      () => client.checkModel('any/model', 'tools', { known: ['chat', 'streming'] }),
      isGatewayError,
    );
    expect(known).toMatchObject({ field: 'capabilities[1]' });
    expect(known.message).toContain('did you mean "streaming"?');
    // A chat call's `capabilities`, from the cache too: the typo, not "(it has: chat, tols)".
    await client.models();
    const tools = [{ type: 'function' as const, function: { name: 'f', parameters: {} } }];
    const chat = await caught(
      () => client.chat({ ...hi(), tools }, { capabilities: ['chat', 'tols'] }),
      isGatewayError,
    );
    expect(chat).toMatchObject({ code: 'invalid_request_error', field: 'capabilities[1]' });
    expect(chat.message).not.toContain('it has');
    const text = await caught(
      () => client.chat({ ...hi(), tools }, { capabilities: 'chat' as never }),
      isGatewayError,
    );
    expect(text).toMatchObject({ code: 'invalid_request_error', field: 'capabilities' });
    // A name unlike every capability is not a typo (the list is open-ended): it passes.
    expect(await client.checkModel('any/model', 'chat', { known: ['chat', 'vision'] })).toEqual([
      'chat',
      'vision',
    ]);
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('an unlisted own model is let through unchecked; any other unlisted id is refused', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    // my/laptop-model is offline: not listed, yet its address works (docs/gateway-protocol.md §3.1).
    expect((await client.models()).map((m) => m.id)).not.toContain('my/laptop-model');
    expect(await client.resolveModel('my/laptop-model')).toBeUndefined();
    expect(await client.requireCapabilities('my/laptop-model', ['chat', 'tools'])).toBeUndefined();
    expect((await client.resolveModel('my/desk-model'))?.id).toBe('my/desk-model');
    const strict = await caught(() => client.model('my/laptop-model'), isGatewayError);
    expect(strict.code).toBe('model_not_found');
    expect(strict.message).toContain('not listed while it is offline');
    const unknown = await caught(
      () => client.requireCapabilities('community/genral', ['chat']),
      isGatewayError,
    );
    expect(unknown.code).toBe('model_not_found');
    expect(unknown.alternatives).toContain('community/general');
    expect((await caught(() => client.resolveModel('pool-a/missing'), isGatewayError)).code).toBe(
      'model_not_found',
    );
    // A listed own model is still checked.
    expect(
      (
        await caught(
          () => client.requireCapabilities('my/desk-model', ['chat', 'tools']),
          isGatewayError,
        )
      ).code,
    ).toBe('unsupported_model_capability');
    // The gateway decides: the key's offline setting sends it to its pool model...
    const answered = await client.chat(hi('my/laptop-model'));
    expect(answered.fallback).toBe(true);
    expect(answered.servedModel).toBe('pool-a/llama-3-8b');
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('an unlisted own model without fallback fails at the gateway with provider_unavailable', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { apiKey: DEFAULT_KEYS.nofallback, maxRetries: 0 });
    expect(await client.requireCapabilities('my/laptop-model', ['chat'])).toBeUndefined();
    expect((await caught(() => client.chat(hi('my/laptop-model')), isGatewayError)).code).toBe(
      'provider_unavailable',
    );
  });

  it('refuses without sending the request when the list, read again, says a service has no node', async () => {
    const gateway = await emulate({
      scenario: { services: { translation: { availableNodes: 0 } } },
    });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    await client.services();
    const before = totalRequests(emulator);
    const error = await caught(
      () => client.translate({ input: 'hello', target_language: 'uk' }),
      isGatewayError,
    );
    expect(error.code).toBe('provider_unavailable');
    // The cached refusal reads GET /capabilities once more (§3.3); the translation is not sent.
    expect(totalRequests(emulator)).toBe(before + 1);
    expect(emulator.counters.requests).toMatchObject({ capabilities: 2, translations: 0 });
  });

  it('resolveEmbeddingEngine: one engine is taken, several require a choice', async () => {
    const two = clientOn(await emulate());
    const error = await caught(() => two.resolveEmbeddingEngine(undefined), isGatewayError);
    expect(error.code).toBe('invalid_request_error');
    expect(error.alternatives?.sort()).toEqual(['all-minilm-l6-v2', 'multilingual-e5-base']);
    expect((await two.resolveEmbeddingEngine('all-minilm-l6-v2')).id).toBe('all-minilm-l6-v2');
    expect((await caught(() => two.resolveEmbeddingEngine('other'), isGatewayError)).code).toBe(
      'model_not_found',
    );
    const one = clientOn(
      await emulate({
        scenario: { services: { embeddings: { engines: { 'all-minilm-l6-v2': null } } } },
      }),
    );
    expect((await one.resolveEmbeddingEngine(undefined)).id).toBe('multilingual-e5-base');
  });
});
