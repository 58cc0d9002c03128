import type { Emulator } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import {
  clientOn,
  clientsSharingEvents,
  DEFAULT_KEYS,
  faulted,
  hi,
  only,
  recordingClient,
  untilEvents,
} from './helpers';

const weather = {
  type: 'function' as const,
  function: { name: 'weather', parameters: { type: 'object', properties: {} } },
};

/** `model` busy for one request, with a Retry-After of 0: a round's retry takes no wait. */
const busyOnce = (emulator: Emulator, model: string) =>
  emulator.injectFault({ fault: 'model_busy', model, times: 1, retryAfter: 0 });

describe('fallbackModels: failover at once', () => {
  it('a busy first model is answered by the second, without sleeping its Retry-After', async () => {
    // An hour: far above maxRetryAfterMs, so a wait on it could never end the test.
    const { emulator, client, events } = await faulted({ fault: 'model_busy', retryAfter: 3600 });
    const result = await client.chat(hi(), { fallbackModels: ['community/streamer'] });
    expect(result.answer.text).toBe('Echo: hello there');
    expect(result.requestedModel).toBe('community/general');
    expect(result.servedModel).toBe('community/streamer');
    expect(result.fallback).toBe(true);
    expect(result.route).toEqual({
      requested: ['community/general', 'community/streamer'],
      hops: [
        { model: 'community/general', outcome: 'failed', reason: 'model_busy' },
        { model: 'community/streamer', outcome: 'answered' },
      ],
      answeredBy: 'community/streamer',
    });
    expect(emulator.counters.requests.chat).toBe(2);
    expect(only(events, 'retry')).toEqual([]);
    expect(only(events, 'failover')).toMatchObject([
      { from: 'community/general', to: 'community/streamer', reason: 'model_busy' },
    ]);
    expect(only(events, 'failover')[0]?.waitedMs).toBeGreaterThanOrEqual(0);
    // Each hop took its own slot and gave it back before the next; the failover is reported
    // once the next model is chosen, its slot held.
    const steps = events
      .map((event) => event.type)
      .filter((type) => ['dequeued', 'released', 'failover'].includes(type));
    expect(steps).toEqual(['dequeued', 'released', 'dequeued', 'failover', 'released']);
    expect(only(events, 'attempt').map((event) => event.model)).toEqual([
      'community/general',
      'community/streamer',
    ]);
    expect(only(events, 'done')[0]).toMatchObject({ ok: true, servedModel: 'community/streamer' });
  });

  it('also with a Retry-After it would wait for, and for streams', async () => {
    const { emulator, client, events } = await faulted({ fault: 'model_busy', retryAfter: 30 });
    const stream = await client.chatStream(hi(), { fallbackModels: ['community/streamer'] });
    expect((await stream.result()).text).toBe('Echo: hello there');
    expect(stream.servedModel).toBe('community/streamer');
    expect(stream.route.hops.map((hop) => hop.outcome)).toEqual(['failed', 'answered']);
    expect(stream.route.answeredBy).toBe('community/streamer');
    expect(only(events, 'retry')).toEqual([]);
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it.each([
    { shared: false, clients: 'one client of maxConcurrency 1' },
    { shared: true, clients: "two clients sharing the key's budget of 1" },
  ])(
    'a failover keeps its turn ($clients): its next hop is served before the calls that queued meanwhile',
    async ({ shared }) => {
      const gateway = await emulate();
      const { events, another } = clientsSharingEvents(gateway);
      const steering = another(shared ? { maxConcurrencyPerKey: 1 } : { maxConcurrency: 1 });
      const other = shared ? another({ maxConcurrencyPerKey: 1 }) : steering;
      // The catalogs read first: the calls below wait on the slots alone.
      await Promise.all([steering.models(), other.models()]);
      gateway.emulator.injectFault({
        fault: 'model_busy',
        model: 'community/general',
        retryAfter: 3600,
      });
      // The busy answer is held until two calls are in line behind the steered call's attempt.
      const release = gateway.hold('chat', { faults: true });
      const steered = steering.chat(hi(), { fallbackModels: ['community/streamer'] });
      await gateway.untilHeld(1);
      const queued = [other.chat(hi('community/plain')), other.chat(hi('community/plain'))];
      await untilEvents(events, (seen) => only(seen, 'queued').length === 3);
      // (A call joins the key's queue in the microtasks after its `queued` event.)
      await new Promise((resolve) => setImmediate(resolve));
      expect(other.budget).toMatchObject({ active: 1, queued: 2 });
      release();
      await Promise.all([steered, ...queued]);
      const attempts = only(events, 'attempt').map((event) => event.model ?? event.requestedModel);
      // The slot the busy model's answer freed went to the first call in line; the failover's
      // next hop came before the second one, although both had queued before it moved on.
      expect(attempts).toEqual([
        'community/general',
        'community/plain',
        'community/streamer',
        'community/plain',
      ]);
    },
  );

  it('moves on for provider_unavailable, 502/503/504 and a connection lost before the answer', async () => {
    for (const fault of [
      'service_unavailable',
      'bad_gateway',
      'gateway_timeout',
      'provider_request_failed',
      'upstream_html',
      'drop_connection',
    ] as const) {
      const { emulator, client, events } = await faulted({ fault });
      const result = await client.chat(hi(), { fallbackModels: ['community/plain'] });
      expect(result.servedModel, fault).toBe('community/plain');
      expect(only(events, 'retry'), fault).toEqual([]);
      expect(emulator.counters.requests.chat, fault).toBe(2);
    }
  });

  it('does not fail over on client_concurrency_exceeded: the key limit is the same for every model', async () => {
    const { emulator, client, events } = await faulted({
      fault: 'rate_limit',
      times: 1,
      retryAfter: 0,
    });
    const result = await client.chat(hi(), { fallbackModels: ['community/plain'] });
    expect(result.servedModel).toBe('community/general');
    expect(result.route.hops).toEqual([{ model: 'community/general', outcome: 'answered' }]);
    expect(only(events, 'failover')).toEqual([]);
    expect(only(events, 'retry')).toMatchObject([{ reason: 'client_concurrency_exceeded' }]);
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('does not fail over on a caller error: the request is refused as it is', async () => {
    const { emulator, client } = await faulted({ fault: 'upstream_json' });
    const error = await caught(
      () => client.chat(hi(), { fallbackModels: ['community/plain'] }),
      isGatewayError,
    );
    expect(error.code).toBe('upstream_error');
    expect(error.status).toBe(400);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('when every model is busy, waits the shortest Retry-After once, then walks the list again', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway);
    const { emulator } = gateway;
    busyOnce(emulator, 'community/general');
    busyOnce(emulator, 'community/plain');
    const result = await client.chat(hi(), { fallbackModels: ['community/plain'] });
    expect(result.servedModel).toBe('community/general');
    expect(result.route.hops).toEqual([
      { model: 'community/general', outcome: 'failed', reason: 'model_busy' },
      { model: 'community/plain', outcome: 'failed', reason: 'model_busy' },
      { model: 'community/general', outcome: 'answered' },
    ]);
    expect(only(events, 'failover')).toHaveLength(1);
    expect(only(events, 'retry')).toMatchObject([{ delayMs: 0, reason: 'model_busy' }]);
    expect(emulator.counters.requests.chat).toBe(3);
  });

  it('a round retries only the models its own failures allow: one busy earlier, then failed for good, is left out', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway, { maxRetries: 2 });
    const { emulator } = gateway;
    // general: busy in round 1, then its stream fails before any content (moves on, never retried).
    busyOnce(emulator, 'community/general');
    emulator.injectFault({
      fault: 'stream_error',
      model: 'community/general',
      afterChunks: 0,
      times: 1,
    });
    emulator.injectFault({ fault: 'model_busy', model: 'community/streamer', retryAfter: 0 });
    const error = await caught(
      () => client.chatStream(hi(), { fallbackModels: ['community/streamer'] }),
      isGatewayError,
    );
    // Round 3 is the streamer alone: general's round-1 busy is not a reason to try it again.
    expect(error.code).toBe('model_busy');
    expect(error.route?.hops.map((hop) => hop.model)).toEqual([
      'community/general',
      'community/streamer',
      'community/general',
      'community/streamer',
      'community/streamer',
    ]);
    expect(emulator.counters.requests.chat).toBe(5);
  });

  it('throws the last failure when the list is exhausted and nothing may be retried', async () => {
    const { emulator, client } = await faulted(
      { fault: 'model_busy', retryAfter: 3600 },
      { maxRetries: 0 },
    );
    emulator.injectFault({ fault: 'service_unavailable', model: 'community/plain' });
    const error = await caught(
      () => client.chat(hi(), { fallbackModels: ['community/plain'] }),
      isGatewayError,
    );
    expect(error.code).toBe('provider_unavailable');
    expect(error.requestedModel).toBe('community/plain');
    expect(emulator.counters.requests.chat).toBe(2);
    expect(client.budget.active).toBe(0);
  });

  it('never has more than 4 requests in flight at the gateway, with 0 concurrency refusals', async () => {
    const gateway = await emulate({
      scenario: {
        streamChunkDelayMs: 1,
        models: { 'community/general': { capacity: 2 } },
      },
    });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const calls = Array.from({ length: 16 }, (_, i) =>
      i % 2 === 0
        ? client.chat(hi('community/general', 'one two three'), {
            fallbackModels: ['community/plain', 'community/streamer'],
          })
        : client
            .chatStream(hi('community/general', 'one two three'), {
              fallbackModels: ['community/streamer'],
            })
            .then((stream) => stream.result()),
    );
    await Promise.all(calls);
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBeLessThanOrEqual(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
    expect(client.budget.active).toBe(0);
  });
});

describe('fallbackModels: checked against the catalog before sending', () => {
  it('skips a fallback lacking tools without a request, and reports the skip', async () => {
    const { emulator, client, events } = await faulted({ fault: 'model_busy', retryAfter: 3600 });
    const result = await client.chat(
      { ...hi(), tools: [weather] },
      { fallbackModels: ['community/streamer', 'community/tools'] },
    );
    expect(result.servedModel).toBe('community/tools');
    // community/general (busy) and community/tools: nothing was sent to community/streamer.
    expect(emulator.counters.requests.chat).toBe(2);
    expect(only(events, 'model-skipped')).toMatchObject([
      { model: 'community/streamer', reason: 'missing_capability' },
    ]);
    expect(only(events, 'model-skipped')[0]?.detail).toContain('lacks tools');
    expect(result.route.hops).toEqual([
      { model: 'community/streamer', outcome: 'skipped', reason: 'missing_capability' },
      { model: 'community/general', outcome: 'failed', reason: 'model_busy' },
      { model: 'community/tools', outcome: 'answered' },
    ]);
    // `start`, then the skips, then the first attempt's queue.
    expect(events.slice(0, 3).map((event) => event.type)).toEqual([
      'start',
      'model-skipped',
      'queued',
    ]);
  });

  it('gates the first model too: one lacking streaming is skipped for a stream', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway);
    const { emulator } = gateway;
    const stream = await client.chatStream(hi('community/plain'), {
      fallbackModels: ['community/streamer'],
    });
    expect((await stream.result()).text).toBe('Echo: hello there');
    expect(stream.requestedModel).toBe('community/plain');
    expect(stream.servedModel).toBe('community/streamer');
    expect(stream.route.hops[0]).toEqual({
      model: 'community/plain',
      outcome: 'skipped',
      reason: 'missing_capability',
    });
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('skips an offline model (not in the catalog) without a request', async () => {
    const gateway = await emulate({
      scenario: {
        models: { 'community/down': { capabilities: ['chat', 'streaming'], online: false } },
      },
    });
    const { client, events } = recordingClient(gateway);
    const { emulator } = gateway;
    const result = await client.chat(hi('community/down'), {
      fallbackModels: ['community/plain'],
    });
    expect(result.servedModel).toBe('community/plain');
    expect(emulator.counters.requests.chat).toBe(1);
    expect(only(events, 'model-skipped')).toMatchObject([
      { model: 'community/down', reason: 'not_in_catalog' },
    ]);
  });

  it('a model going offline mid-run: failed over at once, then skipped without a request', async () => {
    const { emulator, client, events } = await faulted({
      fault: 'model_offline',
      afterRequests: 1,
    });
    const options = { fallbackModels: ['community/plain'] };
    expect((await client.chat(hi(), options)).servedModel).toBe('community/general');
    // Offline now: provider_unavailable, the next model at once (and the catalog forgotten).
    const second = await client.chat(hi(), options);
    expect(second.servedModel).toBe('community/plain');
    expect(second.route.hops[0]).toEqual({
      model: 'community/general',
      outcome: 'failed',
      reason: 'provider_unavailable',
    });
    // The catalog, read again, no longer lists it: skipped before sending.
    const chatRequests = emulator.counters.requests.chat;
    const third = await client.chat(hi(), options);
    expect(third.route.hops).toEqual([
      { model: 'community/general', outcome: 'skipped', reason: 'not_in_catalog' },
      { model: 'community/plain', outcome: 'answered' },
    ]);
    expect(emulator.counters.requests.chat).toBe(chatRequests + 1);
    expect(only(events, 'retry')).toEqual([]);
  });

  it('refuses before any request when no listed model can serve, naming every model and why', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway);
    const { emulator } = gateway;
    const error = await caught(
      () =>
        client.chat(
          { ...hi('community/plain'), tools: [weather] },
          { fallbackModels: ['community/nope', 'community/streamer'] },
        ),
      isGatewayError,
    );
    expect(error.code).toBe('no_model_can_serve');
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain('"community/plain" lacks tools');
    expect(error.message).toContain('"community/nope" is not in the catalog');
    expect(error.message).toContain('"community/streamer" lacks tools');
    expect(error.skipped?.map(({ model, reason }) => ({ model, reason }))).toEqual([
      { model: 'community/plain', reason: 'missing_capability' },
      { model: 'community/nope', reason: 'not_in_catalog' },
      { model: 'community/streamer', reason: 'missing_capability' },
    ]);
    expect(error.alternatives).toContain('community/tools');
    expect(emulator.counters.requests.chat).toBe(0);
    expect(events.map((event) => event.type)).toEqual([
      'start',
      'model-skipped',
      'model-skipped',
      'model-skipped',
      'done',
    ]);
    expect(only(events, 'done')[0]).toMatchObject({
      ok: false,
      attempts: 0,
      error: { code: 'no_model_can_serve' },
    });
  });

  it('keeps an unlisted own model (my/...), tried after the listed ones', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway);
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'model_busy', model: 'community/plain', retryAfter: 3600 });
    const result = await client.chat(hi('my/laptop-model'), {
      fallbackModels: ['community/plain'],
    });
    // Put behind the listed one (its route says so), tried (busy), then the own model, offline,
    // answered through its pool fallback.
    expect(result.route.hops).toEqual([
      { model: 'my/laptop-model', outcome: 'deferred', reason: 'not_in_catalog' },
      { model: 'community/plain', outcome: 'failed', reason: 'model_busy' },
      { model: 'my/laptop-model', outcome: 'answered' },
    ]);
    expect(result.servedModel).toBe('pool-a/llama-3-8b');
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('without fallbackModels (or with an empty list) reads the catalog only for the gate, once', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const plain = await client.chat(hi());
    await client.chat(hi(), { fallbackModels: [] });
    await (await client.chatStream(hi())).result();
    // Core gates every chat call: one read, cached for the next calls (catalogTtlMs).
    expect(emulator.counters.requests.models).toBe(1);
    expect(emulator.counters.requests.chat).toBe(3);
    expect(plain.route).toEqual({
      requested: ['community/general'],
      hops: [{ model: 'community/general', outcome: 'answered' }],
      answeredBy: 'community/general',
    });
  });

  it('refuses a fallbackModels that is not a list of model ids, sending nothing', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    for (const fallbackModels of ['community/plain', [''], [42], null]) {
      const error = await caught(
        () =>
          // @ts-expect-error a wrong type, as JavaScript callers may pass
          client.chat(hi(), { fallbackModels }),
        isGatewayError,
      );
      expect(error.code).toBe('invalid_request_error');
      expect(error.field).toMatch(/^fallbackModels/);
    }
    expect(emulator.counters.requests.chat + emulator.counters.requests.models).toBe(0);
  });
});

/** A gateway whose `community/small` takes one request at a time, streaming slowly; a client on it. */
async function withSmallModel() {
  const gateway = await emulate({
    scenario: {
      streamChunkDelayMs: 5,
      models: { 'community/small': { capabilities: ['chat', 'streaming'], capacity: 1 } },
    },
  });
  return { client: clientOn(gateway), emulator: gateway.emulator };
}

describe('fallbackModels: capacity-aware order', () => {
  it('tries a model with free capacity before one that is full, counting our own calls in flight', async () => {
    const { client, emulator } = await withSmallModel();
    // The catalog, read before: it shows nothing in flight to community/small.
    await client.models();
    const held = await client.chatStream(hi('community/small', 'a b c d e f g h i j'));
    const result = await client.chat(hi('community/small'), {
      fallbackModels: ['community/plain'],
    });
    // community/small is full (our own stream, which the cached catalog does not show):
    // community/plain first, and no request to small.
    expect(result.route.hops).toEqual([
      { model: 'community/small', outcome: 'deferred', reason: 'full' },
      { model: 'community/plain', outcome: 'answered' },
    ]);
    expect(emulator.counters.requests.chat).toBe(2);
    await held.result();
    // With free capacity again, the first listed model keeps its priority.
    const again = await client.chat(hi('community/small'), {
      fallbackModels: ['community/plain'],
    });
    expect(again.servedModel).toBe('community/small');
  });

  it('does not count twice our calls a catalog read saw: a model they filled has free capacity once they end', async () => {
    const { client, emulator } = await withSmallModel();
    const held = await client.chatStream(hi('community/small', 'a b c d e f g h i j'));
    // The catalog is read (again: the stream's gate read it first) while our own stream fills
    // community/small (its inflight: 1).
    client.refreshCatalog();
    const [listed] = (await client.models()).filter((model) => model.id === 'community/small');
    expect(listed?.inflight).toBe(1);
    await held.result();
    // The snapshot still says 1 in flight, but that one was ours and has ended: small has free capacity.
    const result = await client.chat(hi('community/small'), {
      fallbackModels: ['community/plain'],
    });
    expect(result.route.hops).toEqual([{ model: 'community/small', outcome: 'answered' }]);
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('orders by free capacity when the slot is held, not when the call was made: calls queued together spread', async () => {
    const gateway = await emulate({
      scenario: {
        latencyMs: 30,
        models: { 'community/small': { capabilities: ['chat'], capacity: 2 } },
      },
    });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    await client.models();
    // Eight calls at once, all planned while community/small had free capacity; the key runs 4 at a time.
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.chat(hi('community/small'), { fallbackModels: ['community/plain'] }),
      ),
    );
    // Each call chose its model once it held a slot: never a third call sent to small (which
    // would be refused model_busy and fail over), so one request per call.
    expect(emulator.counters.requests.chat).toBe(8);
    const served = results.map((result) => result.servedModel);
    expect(served.filter((model) => model === 'community/small').length).toBeGreaterThanOrEqual(2);
    const tried = (hops: readonly { outcome: string }[]) =>
      hops.filter((hop) => hop.outcome !== 'deferred');
    expect(results.every((result) => tried(result.route.hops).length === 1)).toBe(true);
  });

  it('tries a model reported without a node (available_nodes: 0) after the others', async () => {
    const gateway = await emulate({
      scenario: {
        models: { 'pool-a/idle': { capabilities: ['chat'], copies: 0, pool: 'pool-a' } },
      },
    });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const result = await client.chat(hi('pool-a/idle'), {
      fallbackModels: ['community/general'],
    });
    expect(result.route.hops).toEqual([
      { model: 'pool-a/idle', outcome: 'deferred', reason: 'offline' },
      { model: 'community/general', outcome: 'answered' },
    ]);
    expect(emulator.counters.requests.chat).toBe(1);
  });
});

describe('a steered stream that fails after its content (rv-steer F9)', () => {
  it('its route, as the stream holds it, ends with the failure, as the error says', async () => {
    const { client } = await faulted({ fault: 'stream_error', afterChunks: 2 });
    const stream = await client.chatStream(hi(), { fallbackModels: ['community/streamer'] });
    // (Not asserted at the hand-over: the body is read on ahead of the caller, so whether the
    // failure is in the route yet depends on how far that got. Once the stream ended, it is.)
    const error = await caught(() => stream.result(), isGatewayError);
    const ended = { model: 'community/general', outcome: 'ended', code: error.code };
    expect(error.route?.hops).toEqual([ended]);
    expect(stream.route.hops).toEqual([ended]);
  });

  /**
   * A stream listing `community/streamer` whose `community/general` sends its role and a word,
   * then nothing for ever: open while its caller stops it.
   */
  async function openAfterContent(options: { signal?: AbortSignal } = {}) {
    const gateway = await emulate();
    gateway.emulator.injectFault({
      fault: 'stall_stream',
      model: 'community/general',
      afterChunks: 2,
      ms: 60_000,
    });
    const client = clientOn(gateway);
    const steered = { fallbackModels: ['community/streamer'], ...options };
    const stream = await client.chatStream(hi('community/general', 'one two three'), steered);
    return { stream };
  }

  const answered = [{ model: 'community/general', outcome: 'answered' }];

  /** Reads `stream` up to its first content, leaving it open. */
  async function toFirstContent(stream: AsyncIterable<{ type: string }>) {
    const read = stream[Symbol.asyncIterator]();
    while ((await read.next()).value?.type !== 'text-delta') {
      // Not content yet.
    }
  }

  it('its caller stopping after its content (break, cancel) is no failure: the route keeps its answered hop (rv-events F2)', async () => {
    const { stream } = await openAfterContent();
    for await (const event of stream) if (event.type === 'text-delta') break;
    expect(stream.route.hops).toEqual(answered);
    expect(stream.route.answeredBy).toBe('community/general');
    const other = await openAfterContent();
    await toFirstContent(other.stream);
    await other.stream.cancel();
    expect(other.stream.route.hops).toEqual(answered);
  });

  it("its caller's signal aborting it after its content: the route keeps its answered hop; the error's route says how it ended", async () => {
    const controller = new AbortController();
    const { stream } = await openAfterContent({ signal: controller.signal });
    await toFirstContent(stream);
    controller.abort();
    const error = await caught(() => stream.result(), isGatewayError);
    expect(error.code).toBe('aborted');
    expect(error.route?.hops).toEqual([
      { model: 'community/general', outcome: 'ended', code: 'aborted' },
    ]);
    expect(stream.route.hops).toEqual(answered);
  });
});
