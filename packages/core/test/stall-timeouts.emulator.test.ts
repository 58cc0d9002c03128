import { caught, emulate } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewayClient, isGatewayError } from '../src/index';
import {
  clientOn,
  clientsSharingEvents,
  DEFAULT_KEYS,
  driveClock,
  FOREVER,
  faulted,
  hi,
  idle,
  only,
  recordingClient,
  settledAfter,
} from './helpers';

/** A first-chunk limit that a healthy model (the fallback, or a retry) meets: short against FOREVER. */
const HEALTHY_WITHIN = 300;

// The stall limits and deadlines are the subject: the tests that wait on them drive the clock.
beforeAll(async () => {
  // Core loads its steering and its service calls on first use, and a module load under vitest
  // waits on timers: loaded here, on real ones, before a test fakes them.
  const { client } = recordingClient(await emulate());
  await client.chat(hi(), { fallbackModels: ['community/plain'] });
  await client.translate({ input: 'hello', target_language: 'uk' });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('firstChunkTimeoutMs', () => {
  it('a stream silent before its first chunk fails over to the next model at once', async () => {
    const { gateway, emulator, client, events } = await faulted({
      fault: 'stall_first_chunk',
      ms: FOREVER,
    });
    driveClock();
    const opened = client.chatStream(hi(), {
      fallbackModels: ['community/streamer'],
      firstChunkTimeoutMs: HEALTHY_WITHIN,
    });
    const stream = await settledAfter(HEALTHY_WITHIN, opened);
    expect((await settledAfter(0, stream.result())).text).toBe('Echo: hello there');
    expect(stream.route.hops).toEqual([
      { model: 'community/general', outcome: 'failed', reason: 'first_chunk_stall' },
      { model: 'community/streamer', outcome: 'answered' },
    ]);
    expect(only(events, 'failover')).toMatchObject([
      { from: 'community/general', to: 'community/streamer', reason: 'first_chunk_stall' },
    ]);
    expect(only(events, 'failover')[0]?.waitedMs).toBeGreaterThanOrEqual(HEALTHY_WITHIN);
    expect(only(events, 'retry')).toEqual([]);
    expect(emulator.counters.requests.chat).toBe(2);
    // The stalled request was aborted: the gateway holds nothing for it.
    await settledAfter(0, gateway.untilIdle({ key: DEFAULT_KEYS.full }));
  });

  it("a stall after the answer's headers: its response event carries their status (no network error)", async () => {
    // The gateway answers 200 with its headers at once, then sends nothing.
    const { client, events } = await faulted({ fault: 'stall_first_chunk', ms: FOREVER });
    driveClock();
    const opened = client.chatStream(hi(), {
      fallbackModels: ['community/streamer'],
      firstChunkTimeoutMs: HEALTHY_WITHIN,
    });
    await settledAfter(0, (await settledAfter(HEALTHY_WITHIN, opened)).result());
    expect(only(events, 'response')).toMatchObject([
      { attempt: 1, ok: false, status: 200, code: 'timeout' },
      { attempt: 2, ok: true, status: 200 },
    ]);
  });

  it('a stall before any headers: its response event has no status', async () => {
    const { client, events } = await faulted({ fault: 'slow_headers', ms: FOREVER });
    driveClock();
    await settledAfter(
      HEALTHY_WITHIN,
      client.chat(hi(), {
        fallbackModels: ['community/plain'],
        firstChunkTimeoutMs: HEALTHY_WITHIN,
      }),
    );
    const [stalled] = only(events, 'response');
    expect(stalled).toMatchObject({ attempt: 1, ok: false, code: 'timeout' });
    expect(stalled).not.toHaveProperty('status');
  });

  it('a non-streamed answer whose headers do not come fails over too', async () => {
    const { client } = await faulted({ fault: 'stall_first_chunk', ms: FOREVER });
    driveClock();
    const result = await settledAfter(
      HEALTHY_WITHIN,
      client.chat(hi(), {
        fallbackModels: ['community/plain'],
        firstChunkTimeoutMs: HEALTHY_WITHIN,
      }),
    );
    expect(result.servedModel).toBe('community/plain');
    expect(result.route.hops[0]).toEqual({
      model: 'community/general',
      outcome: 'failed',
      reason: 'first_chunk_stall',
    });
  });

  it('without fallbacks: a typed timeout naming the phase, retryable, the slot given back once the gateway can have seen the close', async () => {
    const { gateway, client } = await faulted(
      { fault: 'stall_first_chunk', ms: FOREVER },
      { firstChunkTimeoutMs: 50, maxRetries: 0 },
    );
    driveClock();
    const error = await settledAfter(
      50,
      caught(() => client.chatStream(hi()), isGatewayError),
    );
    expect(error.code).toBe('timeout');
    expect(error.stall).toMatchObject({ phase: 'first-chunk', limitMs: 50 });
    expect(error.stall?.waitedMs).toBeGreaterThanOrEqual(50);
    expect(error.isRetryable).toBe(true);
    expect(error.message).toContain('firstChunkTimeoutMs (50 ms)');
    expect(error.message).toContain('community/general');
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await idle(client);
    expect(client.budget.active).toBe(0);
    await settledAfter(0, gateway.untilIdle({ key: DEFAULT_KEYS.full }));
  });

  it('is retried like a lost connection when no other model is listed', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, {
      firstChunkTimeoutMs: HEALTHY_WITHIN,
    });
    const { emulator } = gateway;
    emulator.injectFault({
      fault: 'stall_first_chunk',
      model: 'community/general',
      ms: FOREVER,
      times: 1,
    });
    driveClock();
    // (The retry's wait of 0 ms, set while the fake clock fires the stall, runs 1 ms later.)
    const answered = await settledAfter(HEALTHY_WITHIN + 1, client.chat(hi()));
    expect(answered.answer.text).toBe('Echo: hello there');
    expect(only(events, 'retry')).toMatchObject([{ reason: 'timeout' }]);
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it("the call's option wins over the client's; both are off by default", async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { firstChunkTimeoutMs: 20 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/general', ms: 100 });
    const off = await emulate();
    off.emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/general', ms: 100 });
    driveClock();
    const answered = await settledAfter(100, client.chat(hi(), { firstChunkTimeoutMs: FOREVER }));
    expect(answered.answer.text).toBe('Echo: hello there');
    expect((await settledAfter(100, clientOn(off).chat(hi()))).answer.text).toBe(
      'Echo: hello there',
    );
  });

  it("a stall is the caller's own judgement: a strict client's stalls never open a breaker for the others (rv-steer F3)", async () => {
    const gateway = await emulate();
    const { events, another } = clientsSharingEvents(gateway);
    const strict = another();
    const lenient = another();
    // A healthy model, slow to its first chunk: 500 ms, against a strict caller's 100.
    gateway.emulator.injectFault({
      fault: 'stall_first_chunk',
      model: 'community/general',
      ms: 500,
    });
    const list = { fallbackModels: ['community/streamer'] };
    driveClock();
    for (let i = 0; i < 3; i++) {
      const opened = strict.chatStream(hi(), { ...list, firstChunkTimeoutMs: 100 });
      const stream = await settledAfter(100, opened);
      await settledAfter(0, stream.result());
      expect(stream.route.hops[0]).toEqual({
        model: 'community/general',
        outcome: 'failed',
        reason: 'first_chunk_stall',
      });
    }
    // Neither another client with no stall limit nor the strict one's next call without it skip it.
    for (const client of [lenient, strict]) {
      const answered = await settledAfter(500, client.chat(hi(), list));
      expect(answered.route.hops).toEqual([{ model: 'community/general', outcome: 'answered' }]);
    }
    expect(only(events, 'circuit-open')).toEqual([]);
    expect(only(events, 'model-skipped')).toEqual([]);
  });

  it('applies to chat calls only: a slow service answer is not a stall', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, {
      firstChunkTimeoutMs: 10,
      chunkTimeoutMs: 10,
    });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'translations', ms: 100 });
    driveClock();
    const translated = await settledAfter(
      100,
      client.translate({ input: 'hello', target_language: 'uk' }),
    );
    expect(translated.text).toBeTypeOf('string');
  });
});

describe('chunkTimeoutMs', () => {
  it('a stream silent between chunks fails with timeout and its phase; its slot given back once the gateway can have seen the close', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { chunkTimeoutMs: 50 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'stall_stream', afterChunks: 2, ms: FOREVER });
    // Listed fallbacks change nothing once the stream has begun: no failover, no repeat.
    driveClock();
    const opened = client.chatStream(hi('community/general', 'one two three four'), {
      fallbackModels: ['community/streamer'],
    });
    const stream = await settledAfter(0, opened);
    const seen: string[] = [];
    const read = caught(async () => {
      for await (const event of stream) seen.push(event.type);
    }, isGatewayError);
    const error = await settledAfter(50, read);
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await idle(client);
    expect(client.budget.active).toBe(0);
    expect(emulator.counters.inflight[DEFAULT_KEYS.full] ?? 0).toBe(0);
    expect(error.code).toBe('timeout');
    expect(error.stall).toMatchObject({ phase: 'between-chunks', limitMs: 50 });
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain('chunkTimeoutMs (50 ms)');
    expect(seen.length).toBeGreaterThan(0);
    expect(emulator.counters.requests.chat).toBe(1);
    expect(only(events, 'failover')).toEqual([]);
    expect(only(events, 'done')[0]).toMatchObject({ ok: false, error: { code: 'timeout' } });
  });

  it('a stall after the finish_reason ends the stream as answered, not with timeout', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { chunkTimeoutMs: 50 });
    // Role, three pieces of text, the finish chunk: then silence where the usage or [DONE] was due.
    gateway.emulator.injectFault({ fault: 'stall_stream', afterChunks: 5, ms: FOREVER });
    driveClock();
    const stream = await settledAfter(0, client.chatStream(hi()));
    const answer = await settledAfter(50, stream.result());
    expect(answer.text).toBe('Echo: hello there');
    expect(answer.finishReason).toBe('stop');
    await idle(client);
    expect(client.budget.active).toBe(0);
    expect(only(events, 'done')[0]).toMatchObject({ ok: true });
  });

  it('leaves no timer behind once the stream is read to its end', async () => {
    const client = clientOn(await emulate());
    driveClock();
    const plain = await settledAfter(0, client.chatStream(hi()));
    await settledAfter(0, plain.result());
    const timersOfAPlainStream = vi.getTimerCount();
    const watched = await settledAfter(0, client.chatStream(hi(), { chunkTimeoutMs: FOREVER }));
    expect((await settledAfter(0, watched.result())).finishReason).toBe('stop');
    // A silence clock started again after the end would keep the process (and the stream) alive.
    expect(vi.getTimerCount()).toBe(timersOfAPlainStream);
  });

  it('does not fire while chunks keep coming', async () => {
    const gateway = await emulate({ scenario: { streamChunkDelayMs: 5 } });
    const client = clientOn(gateway, { chunkTimeoutMs: 1_000 });
    const stream = await client.chatStream(hi('community/general', 'a b c d e f g h'));
    expect((await stream.result()).text).toBe('Echo: a b c d e f g h');
  });
});

/** A chat over three listed models, ended by `signal`: it fails with `aborted`. */
async function abortedWalk(
  client: ReturnType<typeof recordingClient>['client'],
  signal: AbortSignal,
): Promise<void> {
  const error = await caught(
    () => client.chat(hi(), { fallbackModels: ['community/plain', 'community/streamer'], signal }),
    isGatewayError,
  );
  expect(error.code).toBe('aborted');
}

describe('one deadline and one abort over the whole walk', () => {
  it('an abort during failover stops the walk: no further model is tried', async () => {
    const controller = new AbortController();
    const gateway = await emulate();
    const { client } = recordingClient(gateway, {
      onEvent: (event) => {
        if (event.type === 'failover') controller.abort(new Error('user left'));
      },
    });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'model_busy', model: 'community/general', retryAfter: 3600 });
    await abortedWalk(client, controller.signal);
    expect(emulator.counters.requests.chat).toBe(1);
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await client.budget.whenIdle();
    expect(client.budget.active).toBe(0);
  });

  it('an abort while a later model is being tried ends that request too', async () => {
    const controller = new AbortController();
    const gateway = await emulate();
    const { client } = recordingClient(gateway);
    const { emulator } = gateway;
    // Aborted once the later model's request has reached the gateway (the first was refused).
    void gateway.untilRequests(2).then(() => controller.abort());
    emulator.injectFault({ fault: 'model_busy', model: 'community/general', retryAfter: 3600 });
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/plain', ms: FOREVER });
    await abortedWalk(client, controller.signal);
    expect(emulator.counters.requests.chat).toBe(2);
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await client.budget.whenIdle();
    expect(client.budget.active).toBe(0);
    expect(emulator.counters.inflight[DEFAULT_KEYS.full] ?? 0).toBe(0);
  });

  it("the call's deadline bounds the whole walk, across models", async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway);
    const { emulator } = gateway;
    for (const model of ['community/general', 'community/plain']) {
      emulator.injectFault({ fault: 'stall_first_chunk', model, ms: FOREVER });
    }
    // The first model stalls at 1 s; the second would at 2 s, past the deadline of 1.8 s.
    driveClock();
    const walk = caught(
      () =>
        client.chat(hi(), {
          fallbackModels: ['community/plain', 'community/streamer'],
          firstChunkTimeoutMs: 1_000,
          timeoutMs: 1_800,
        }),
      isGatewayError,
    );
    const error = await settledAfter(1_800, walk);
    expect(error.code).toBe('timeout');
    expect(error.stall).toBeUndefined();
    expect(emulator.counters.requests.chat).toBe(2);
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await idle(client);
    expect(client.budget.active).toBe(0);
  });
});

describe('stall timeout options', () => {
  it('refuses a call option that is not a finite number > 0 (invalid_request_error), sending nothing', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    for (const [field, value] of [
      ['firstChunkTimeoutMs', 0],
      ['chunkTimeoutMs', -1],
      ['firstChunkTimeoutMs', Number.POSITIVE_INFINITY],
      ['chunkTimeoutMs', '100'],
    ] as const) {
      const error = await caught(
        () => client.chatStream(hi(), { [field]: value } as Record<string, number>),
        isGatewayError,
      );
      // A call option is the request's: invalid_request_error (a client option's is configuration).
      expect(error.code).toBe('invalid_request_error');
      expect(error.field).toBe(field);
      expect(error.message).toContain(`${field} (call option)`);
    }
    expect(emulator.counters.requests.chat).toBe(0);
    expect(emulator.counters.requests.models).toBe(0);
  });

  it('refuses a client option that is not an integer ≥ 1 at creation', () => {
    for (const field of ['firstChunkTimeoutMs', 'chunkTimeoutMs'] as const) {
      expect(() =>
        createGatewayClient({ baseURL: 'https://gw.test', apiKey: 'k-1234', [field]: 0 }),
      ).toThrow(expect.objectContaining({ code: 'configuration_error', field }));
    }
  });
});
