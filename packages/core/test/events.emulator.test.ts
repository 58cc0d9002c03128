import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it, vi } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { createGatewayClient, type GatewayEvent, isGatewayError } from '../src/index';
import { clientOn, DEFAULT_KEYS, hi } from './helpers';

/**
 * A client whose events are collected, on its own emulator. Its catalog is read first and those
 * events dropped (core gates a chat call against GET /models: a client's first chat call reads
 * it), so what is collected is the calls of the test; `cold` leaves it unread.
 */
async function recorded(options: GatewayClientOptions = {}, cold = false) {
  const events: GatewayEvent[] = [];
  const gateway = await emulate();
  const client = clientOn(gateway, { onEvent: (event) => events.push(event), ...options });
  if (!cold) await client.models();
  events.length = 0;
  const types = (callId?: number) =>
    events.filter((event) => callId === undefined || event.callId === callId).map((e) => e.type);
  return { emulator: gateway.emulator, client, events, types };
}

function only<T extends GatewayEvent['type']>(
  events: GatewayEvent[],
  type: T,
): Extract<GatewayEvent, { type: T }>[] {
  return events.filter((event): event is Extract<GatewayEvent, { type: T }> => event.type === type);
}

describe('onEvent', () => {
  it('reports a chat call: start, slot, attempt, response, done with usage and served model', async () => {
    const { client, events, types } = await recorded();
    await client.chat(hi());
    expect(types()).toEqual([
      'start',
      'queued',
      'dequeued',
      'attempt',
      'response',
      'released',
      'done',
    ]);
    const [start] = only(events, 'start');
    expect(start).toMatchObject({
      operation: 'chat',
      method: 'POST',
      path: '/chat/completions',
      requestedModel: 'community/general',
      stream: false,
      serverPort: 443,
    });
    expect(start?.serverAddress).toMatch(/^gateway-\d+\.test$/);
    expect(start?.budgetId).toMatch(/^ig-/);
    expect(only(events, 'dequeued')[0]?.waitMs).toBeGreaterThanOrEqual(0);
    expect(only(events, 'attempt')[0]).toMatchObject({ attempt: 1, path: '/chat/completions' });
    expect(only(events, 'response')[0]).toMatchObject({ attempt: 1, ok: true, status: 200 });
    const [done] = only(events, 'done');
    expect(done).toMatchObject({
      ok: true,
      attempts: 1,
      requestedModel: 'community/general',
      servedModel: 'community/general',
    });
    expect(done?.usage?.inputTokens).toBeGreaterThan(0);
    expect(done?.usage?.outputTokens).toBeGreaterThan(0);
    expect(done?.finishReason).toBe('stop');
    expect(done?.responseId).toBeTypeOf('string');
    expect(new Set(events.map((event) => event.callId)).size).toBe(1);
    expect(events.every((event) => event.operation === 'chat')).toBe(true);
  });

  it("reports the catalog read a client's first chat call needs as that call's child, before its slot", async () => {
    const { client, events } = await recorded({}, true);
    await client.chat(hi());
    const [chat, read] = only(events, 'start');
    expect(chat).toMatchObject({ operation: 'chat', path: '/chat/completions' });
    expect(read).toMatchObject({
      operation: 'models',
      path: '/models',
      parentCallId: chat?.callId,
    });
    expect(chat?.parentCallId).toBeUndefined();
    const sequence = events.map((event) => `${event.operation} ${event.type}`);
    // The read runs whole inside the call, before the call asks for its slot.
    expect(sequence).toEqual([
      'chat start',
      'models start',
      'models queued',
      'models dequeued',
      'models attempt',
      'models response',
      'models released',
      'models done',
      'chat queued',
      'chat dequeued',
      'chat attempt',
      'chat response',
      'chat released',
      'chat done',
    ]);
    // A second call finds the catalog cached: no read.
    events.length = 0;
    await client.chat(hi());
    expect(events.every((event) => event.operation === 'chat')).toBe(true);
  });

  it('reports a fallback: the requested model and the one that answered', async () => {
    const { client, events } = await recorded();
    const result = await client.chat(hi('my/laptop-model'));
    expect(result.fallback).toBe(true);
    const [fallback] = only(events, 'fallback');
    expect(fallback).toMatchObject({
      requestedModel: 'my/laptop-model',
      servedModel: result.servedModel,
    });
    // (An unlisted own model is looked up again once in a cached catalog: that read's `done`
    // comes first, a child of the call.)
    const chatDone = only(events, 'done').filter((event) => event.operation === 'chat');
    expect(chatDone.map((event) => event.servedModel)).toEqual([result.servedModel]);
  });

  it('reports a 429 with its Retry-After, the retry and the second attempt', async () => {
    const { client, emulator, events, types } = await recorded();
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', times: 1, retryAfter: 0 });
    await client.chat(hi());
    expect(types()).toEqual([
      'start',
      'queued',
      'dequeued',
      'attempt',
      'response',
      'released',
      'retry',
      'queued',
      'dequeued',
      'attempt',
      'response',
      'released',
      'done',
    ]);
    const [refused, answered] = only(events, 'response');
    expect(refused).toMatchObject({
      attempt: 1,
      ok: false,
      status: 429,
      code: 'client_concurrency_exceeded',
      retryAfterMs: 0,
    });
    expect(answered).toMatchObject({ attempt: 2, ok: true, status: 200 });
    expect(only(events, 'retry')[0]).toMatchObject({
      attempt: 1,
      delayMs: 0,
      reason: 'client_concurrency_exceeded',
      status: 429,
    });
    expect(only(events, 'done')[0]).toMatchObject({ ok: true, attempts: 2 });
  });

  it('reports a failed call with the gateway code', async () => {
    const { client, emulator, events } = await recorded({ maxRetries: 0 });
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat' });
    const error = await caught(() => client.chat(hi()), isGatewayError);
    expect(only(events, 'done')[0]).toMatchObject({
      ok: false,
      attempts: 1,
      error: { code: error.code, status: error.status },
    });
    expect(only(events, 'done')[0]?.servedModel).toBeUndefined();
  });

  it('ends with done after the slot is released, also when the body cannot be read', async () => {
    // (Its capabilities given: a catalog read would be too large for this limit too.)
    const { client, events, types } = await recorded({ maxResponseBytes: 16 }, true);
    const call = () => client.chat(hi(), { capabilities: ['chat'] });
    expect((await caught(call, isGatewayError)).code).toBe('response_too_large');
    expect(only(events, 'start').map((event) => event.operation)).toEqual(['chat']);
    expect(types().slice(-2)).toEqual(['released', 'done']);
    expect(only(events, 'done')[0]?.error?.code).toBe('response_too_large');
  });

  it('reports a stream when it ends, with its usage', async () => {
    const { client, events, types } = await recorded();
    const stream = await client.chatStream(hi());
    expect(types()).not.toContain('done');
    await stream.result();
    expect(types()).toEqual([
      'start',
      'queued',
      'dequeued',
      'attempt',
      'response',
      'released',
      'done',
    ]);
    expect(only(events, 'start')[0]?.stream).toBe(true);
    expect(only(events, 'done')[0]).toMatchObject({ ok: true, servedModel: 'community/general' });
    expect(only(events, 'done')[0]?.usage?.outputTokens).toBeGreaterThan(0);
    expect(only(events, 'done')[0]?.finishReason).toBe('stop');
    expect(only(events, 'done')[0]?.responseId).toBeTypeOf('string');
  });

  it('reports a cancelled stream as failed', async () => {
    const { client, events } = await recorded();
    const stream = await client.chatStream(hi());
    await stream.cancel();
    // Its `done` comes as its slot is released, once the bytes it had read are decoded (for the
    // usage): after cancel() resolves, over msw and HTTP as through the emulator's fetch.
    await client.budget.whenIdle();
    expect(only(events, 'done')[0]).toMatchObject({ ok: false, error: { code: 'aborted' } });
  });

  it('names embeddings, services and catalog calls by operation', async () => {
    const { client, events } = await recorded();
    await client.embed({ input: 'hello', model: 'all-minilm-l6-v2' });
    await client.translate({ input: 'hello', target_language: 'uk' });
    const operations = only(events, 'done').map((event) => event.operation);
    expect(operations).toEqual(['capabilities', 'embeddings', 'translation']);
    const embeddings = only(events, 'done').find((event) => event.operation === 'embeddings');
    expect(embeddings?.requestedModel).toBe('all-minilm-l6-v2');
    expect(embeddings?.usage?.inputTokens).toBeGreaterThan(0);
  });

  it('reports no fallback for an embeddings answer that names its engine another way', async () => {
    const events: GatewayEvent[] = [];
    const gateway = await emulate();
    const client = clientOn(gateway, {
      onEvent: (event) => events.push(event),
      fetch: async (input, init) => {
        const response = await gateway.emulator.fetch(input, init);
        if (!String(input).endsWith('/embeddings')) return response;
        const body = {
          ...(await response.json()),
          model: 'sentence-transformers/all-MiniLM-L6-v2',
        };
        return Response.json(body);
      },
    });
    await client.embed({ input: 'hello', model: 'all-minilm-l6-v2' });
    expect(only(events, 'done').at(-1)?.servedModel).toBe('sentence-transformers/all-MiniLM-L6-v2');
    expect(only(events, 'fallback')).toEqual([]);
  });

  it('reports a call that ends while queued: no attempt, queue wait counted', async () => {
    const { client, events } = await recorded({ maxConcurrency: 1 });
    const first = await client.chatStream(hi());
    const controller = new AbortController();
    const second = client.chat(hi(), { signal: controller.signal });
    controller.abort();
    await caught(() => second, isGatewayError);
    await first.cancel();
    const secondId = only(events, 'start')[1]?.callId;
    const ofSecond = events.filter((event) => event.callId === secondId).map((e) => e.type);
    expect(ofSecond).toEqual(['start', 'queued', 'done']);
    expect(only(events, 'done').find((e) => e.callId === secondId)).toMatchObject({
      ok: false,
      attempts: 0,
      error: { code: 'aborted' },
    });
  });

  it('a hook that throws or rejects does not change the call', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const throwing = clientOn(await emulate(), {
        onEvent: () => {
          throw new Error('hook failed');
        },
      });
      expect((await throwing.chat(hi())).answer.text).toBe('Echo: hello there');
      const rejecting = clientOn(await emulate(), {
        onEvent: (async () => {
          throw new Error('async hook failed');
        }) as () => void,
      });
      const stream = await rejecting.chatStream(hi());
      expect((await stream.result()).text).toBe('Echo: hello there');
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('never carries the API key, and no content unless recordContent is set', async () => {
    const secret = 'hello there, this is the message';
    const plain = await recorded();
    await plain.client.chat(hi('community/general', secret));
    await (await plain.client.chatStream(hi('community/general', secret))).result();
    const text = JSON.stringify(plain.events);
    expect(text).not.toContain(DEFAULT_KEYS.full);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('Echo:');

    const withContent = await recorded({ recordContent: true });
    await withContent.client.chat(hi('community/general', secret));
    const [start] = only(withContent.events, 'start');
    const [done] = only(withContent.events, 'done');
    expect(start?.input).toContain(secret);
    expect(done?.output).toContain(`Echo: ${secret}`);
    expect(JSON.stringify(withContent.events)).not.toContain(DEFAULT_KEYS.full);
  });

  it('recorded content never holds the key, even when a message quotes it', async () => {
    const { client, events } = await recorded({ recordContent: true });
    await client.chat(hi('community/general', `my key is ${DEFAULT_KEYS.full}`));
    expect(only(events, 'start')[0]?.input).toContain('[redacted]');
    expect(only(events, 'done')[0]?.output).toContain('[redacted]');
    expect(JSON.stringify(events)).not.toContain(DEFAULT_KEYS.full);
  });

  it('refuses an onEvent that is not a function', () => {
    let error: unknown;
    try {
      createGatewayClient({ baseURL: 'https://gw.test', apiKey: 'k', onEvent: 'log' as never });
    } catch (caughtError) {
      error = caughtError;
    }
    expect(error).toMatchObject({ code: 'configuration_error', field: 'onEvent' });
  });

  it('builds no events for a client without a hook', async () => {
    const hooked = await recorded();
    const plain = clientOn(await emulate());
    await hooked.client.chat(hi());
    await plain.chat(hi());
    await plain.chatStream(hi()).then((stream) => stream.result());
    await hooked.client.chat(hi());
    const [first, second] = only(hooked.events, 'start').map((event) => event.callId);
    // Call ids count every call that built events in this realm: the plain client's built none.
    expect(second).toBe((first ?? 0) + 1);
  });
});
