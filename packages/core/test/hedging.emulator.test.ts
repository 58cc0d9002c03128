// Hedged first chunks (issue 46): a second attempt into a free slot when the first is slow to its
// first content, the first to deliver content wins, the other aborted at once.
import type { Emulator } from '@infergate/emulator';
import { caught, emulate, untilRequests } from '@infergate/emulator/testing';
import { describe, expect, it, vi } from 'vitest';
import { budgetId } from '../src/budget/budget-id';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import type { ChatCallOptions, GatewayClient, GatewayEvent } from '../src/index';
import { isGatewayError } from '../src/index';
import { AUTO_HEDGE, hedgeDelay } from '../src/steering/hedge-delay';
import {
  beforeEachChat,
  clientOn,
  clientsSharingEvents,
  DEFAULT_KEYS,
  deferred,
  driveClock,
  faulted,
  hedgesOnDrivenClock,
  hi,
  idle,
  ONE_ATTEMPT,
  only,
  recordingClient,
  settledAfter,
  slowIfFreeBudget,
} from './helpers';

/** Far longer than any test: a stall the hedge must beat, never one that ends by itself. */
const FOREVER = 60_000;

/** A call listing `community/streamer`, hedged after 30 ms. */
const HEDGED_AT_30 = {
  fallbackModels: ['community/streamer'],
  hedge: { afterMs: 30, maxExtra: 1 },
};

/** A call read whole (`chat`) or streamed (`chatStream`), as a test's name says it. */
const READ_WAYS = [
  ['read whole', false],
  ['streamed', true],
] as const;

const held = (emulator: Emulator, model: string, times = 1) =>
  emulator.injectFault({ fault: 'stall_first_chunk', model, ms: FOREVER, times });

/** On the driven clock: the error a chat (`hi()`, with `options`) fails with by its `timeoutMs`. */
function chatFailureAt(client: GatewayClient, options: ChatCallOptions & { timeoutMs: number }) {
  driveClock();
  return settledAfter(
    options.timeoutMs,
    caught(() => client.chat(hi(), options), isGatewayError),
  );
}

/**
 * A chat on a held model that may hedge after 30 ms but finds nothing to hedge to: it times out
 * with no hedge sent. Returns its `hedge-skipped` events.
 */
async function timesOutUnhedged(
  { client, events }: ReturnType<typeof recordingClient>,
  timeoutMs: number,
) {
  const error = await chatFailureAt(client, { hedge: { afterMs: 30, maxExtra: 1 }, timeoutMs });
  expect(error.code).toBe('timeout');
  expect(only(events, 'hedge')).toEqual([]);
  return only(events, 'hedge-skipped');
}

/**
 * A stream to a held `community/general`, listing `community/streamer` and hedged with `hedge`,
 * on a fresh gateway: the streamer answers it in full.
 */
async function hedgedToStreamer(hedge: { afterMs: number | 'auto'; maxExtra?: number }) {
  const gateway = await emulate();
  const { client, events } = recordingClient(gateway);
  const { emulator } = gateway;
  held(emulator, 'community/general');
  driveClock();
  const streamed = client
    .chatStream(hi(), { fallbackModels: ['community/streamer'], hedge })
    .then(async (stream) => ({ stream, result: await stream.result() }));
  // The hedge is sent when the clock passes its wait ('auto' on a fresh key: the prior).
  const wait = hedge.afterMs === 'auto' ? AUTO_HEDGE.priorMs.stream : hedge.afterMs;
  const { stream, result } = await settledAfter(wait, streamed);
  expect(result.text).toBe('Echo: hello there');
  expect(stream.servedModel).toBe('community/streamer');
  return { client, events, emulator, stream };
}

/**
 * A call hedged after 50 ms (on the driven clock) whose first request's fetch gives up only when
 * the test calls `letGo()`, abort or not: the hedge wins at once. Its chat events, a promise of its
 * `done`, and its answer.
 */
async function hedgedOverHeldFirst(stream: boolean) {
  const gateway = await emulate();
  const { emulator } = gateway;
  const { promise: late, resolve: letGo } = deferred();
  const fetch = beforeEachChat(emulator, async (chat, init) => {
    if (chat > 1) return;
    await late;
    throw init!.signal!.reason;
  });
  const events: GatewayEvent[] = [];
  const { promise: done, resolve: ended } = deferred();
  const client = clientOn(gateway, {
    fetch,
    onEvent: (event) => {
      if (event.operation !== 'chat') return;
      events.push(event);
      if (event.type === 'done') ended();
    },
  });
  driveClock();
  const options = { fallbackModels: ['community/streamer'], hedge: { afterMs: 50, maxExtra: 1 } };
  const answered = stream
    ? client.chatStream(hi(), options).then((opened) => opened.result())
    : client.chat(hi(), options).then((result) => result.answer);
  return { events, done, letGo, answered };
}

/**
 * A call to a held `community/general`, listing `community/streamer` and hedged after 50 ms (the
 * streamer wins, the first attempt is cut): its chat events, once its `done` event came.
 */
async function hedgedUntilDone(stream: boolean): Promise<GatewayEvent[]> {
  const gateway = await emulate();
  const events: GatewayEvent[] = [];
  const { promise: done, resolve: ended } = deferred();
  const client = clientOn(gateway, {
    onEvent: (event) => {
      if (event.operation !== 'chat') return;
      events.push(event);
      if (event.type === 'done') ended();
    },
  });
  held(gateway.emulator, 'community/general');
  driveClock();
  const options = { fallbackModels: ['community/streamer'], hedge: { afterMs: 50, maxExtra: 1 } };
  const answered = stream
    ? client.chatStream(hi(), options).then((opened) => opened.result())
    : client.chat(hi(), options).then((result) => result.answer);
  expect((await settledAfter(50, answered)).text).toBe('Echo: hello there');
  await settledAfter(0, done);
  return events;
}

describe('hedge: a second attempt when the first is slow to its first content', () => {
  hedgesOnDrivenClock();

  it('goes to the next listed model into a free slot; the hedge wins, the first is aborted', async () => {
    // Exactly one attempt's output reaches the caller.
    const { client, events, emulator, stream } = await hedgedToStreamer({
      afterMs: 50,
      maxExtra: 1,
    });
    expect(stream.route.hops).toEqual([
      { model: 'community/general', outcome: 'lost' },
      { model: 'community/streamer', outcome: 'answered' },
    ]);
    expect(only(events, 'hedge')).toMatchObject([
      { phase: 'sent', from: 'community/general', model: 'community/streamer' },
      { phase: 'won', model: 'community/streamer', winner: 'hedge', lost: 'community/general' },
    ]);
    expect(only(events, 'hedge')[0]?.waitedMs).toBeGreaterThanOrEqual(50);
    expect(only(events, 'done')).toHaveLength(1);
    expect(emulator.counters.requests.chat).toBe(2);
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await idle(client);
    expect(client.budget.active).toBe(0);
    expect(emulator.counters.inflight[DEFAULT_KEYS.full] ?? 0).toBe(0);
  });

  it('goes to the listed model with free capacity when the hedge is sent, past one that filled since the call began', async () => {
    const gateway = await emulate({
      scenario: { models: { 'community/streamer': { capacity: 1 } } },
    });
    const { client, events } = recordingClient(gateway);
    const { emulator } = gateway;
    held(emulator, 'community/general');
    held(emulator, 'community/streamer');
    driveClock();
    const answered = client.chatStream(hi(), {
      fallbackModels: ['community/streamer', 'community/tools'],
      hedge: { afterMs: 50, maxExtra: 1 },
    });
    await untilRequests(emulator, 1, { what: 'the first attempt on community/general' });
    // Another call fills the streamer (capacity 1) after the hedged call was planned.
    const filler = new AbortController();
    const filling = client.chatStream(hi('community/streamer'), { signal: filler.signal });
    await untilRequests(emulator, 2, { what: 'the call filling community/streamer' });
    const stream = await settledAfter(50, answered);
    expect(stream.servedModel).toBe('community/tools');
    expect(only(events, 'hedge')[0]).toMatchObject({ phase: 'sent', model: 'community/tools' });
    filler.abort();
    await caught(() => filling, isGatewayError);
  });

  it('without a list goes to the same model (the gateway sends it to another copy)', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway);
    const { emulator } = gateway;
    held(emulator, 'community/general');
    driveClock();
    const result = await settledAfter(
      50,
      client.chat(hi(), { hedge: { afterMs: 50, maxExtra: 1 } }),
    );
    expect(result.answer.text).toBe('Echo: hello there');
    expect(result.route.hops).toEqual([
      { model: 'community/general', outcome: 'lost' },
      { model: 'community/general', outcome: 'answered' },
    ]);
    // The same model both times: the winner is told by the run, not by the model.
    expect(only(events, 'hedge').at(-1)).toMatchObject({ phase: 'won', winner: 'hedge' });
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('a first attempt cut after its headers, while its body is read: its own outcome at its cut', async () => {
    const gateway = await emulate();
    const emulated = gateway.connection.fetch;
    let chats = 0;
    // The first chat's headers come, then its body stops after a few bytes; the hedge's answers.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (String(input).endsWith('/chat/completions') && ++chats === 1) {
        // As fetch does, its abort errors the body.
        const start = (c: ReadableStreamDefaultController<Uint8Array>) => {
          c.enqueue(new TextEncoder().encode('{"id":'));
          init?.signal?.addEventListener('abort', () => c.error(init.signal?.reason));
        };
        return new Response(new ReadableStream({ start }), {
          headers: { 'content-type': 'application/json' },
        });
      }
      return emulated(input, init);
    };
    const connection = { ...gateway.connection, fetch };
    const { client, events } = recordingClient({ connection });
    driveClock();
    const result = await settledAfter(
      50,
      client.chat(hi(), { hedge: { afterMs: 50, maxExtra: 1 }, capabilities: ['chat'] }),
    );
    expect(result.answer.text).toBe('Echo: hello there');
    await idle(client);
    // Not the answer the hedge gave the call: the first attempt failed, cut; its slot given back.
    const first = events.filter((event) => 'attempt' in event && event.attempt === 1);
    expect(first.slice(-2)).toMatchObject([
      { type: 'response', ok: false, code: 'aborted', status: 200 },
      { type: 'released' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done', ok: true });
  });

  it('is not sent when the first answers in time: one request, no hedge event', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway);
    const { emulator } = gateway;
    const result = await client.chat(hi(), { hedge: { afterMs: 5_000, maxExtra: 1 } });
    expect(result.route.hops).toEqual([{ model: 'community/general', outcome: 'answered' }]);
    expect(only(events, 'hedge')).toEqual([]);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('never queues: without a free slot no hedge is sent (the key never exceeds its limit)', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    held(emulator, 'community/general');
    const skipped = await timesOutUnhedged(recordingClient(gateway, { maxConcurrency: 1 }), 400);
    // It says why, once.
    expect(skipped).toMatchObject([{ model: 'community/general', reason: 'no_free_slot' }]);
    expect(skipped[0]?.waitedMs).toBe(30);
    expect(emulator.counters.requests.chat).toBe(1);
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBe(1);
  });

  it('keeps the extra requests within maxExtra of the calls', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway);
    const { emulator } = gateway;
    // Every first attempt is slow: without the cap, each call would be hedged.
    held(emulator, 'community/general', 1_000);
    driveClock();
    const calls = 40;
    for (let i = 0; i < calls; i++) {
      const call = client
        .chat(hi(), { hedge: { afterMs: 20, maxExtra: 0.1 }, timeoutMs: 150, maxRetries: 0 })
        .catch(() => undefined);
      // Past the hedge's wait to the deadline, and past the cut requests' grace for their slots.
      await vi.advanceTimersByTimeAsync(150 + CUT_REQUEST_GRACE_MS);
      await call;
    }
    const hedges = only(events, 'hedge').filter((event) => event.phase === 'sent').length;
    // maxExtra × calls, plus what the budget may save up (0.1 × 40 = 4).
    expect(hedges).toBeGreaterThan(0);
    expect(hedges).toBeLessThanOrEqual(calls * 0.1 + 4);
    // No request beyond the calls and their counted hedges; on a driven clock, every attempt
    // reaches the gateway before its deadline.
    expect(emulator.counters.requests.chat).toBe(calls + hedges);
  });

  it("both attempts failing: the first run's error ends the call, its route and message name both", async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { maxRetries: 0 });
    const { emulator } = gateway;
    held(emulator, 'community/general');
    emulator.injectFault({ fault: 'model_busy', model: 'community/streamer', retryAfter: 3600 });
    const error = await chatFailureAt(client, {
      fallbackModels: ['community/streamer'],
      hedge: { afterMs: 30, maxExtra: 1 },
      timeoutMs: 500,
    });
    expect(error.code).toBe('timeout');
    expect(error.route?.requested).toEqual(['community/general', 'community/streamer']);
    // The hedge's failure too, in the order they came; the error's own hop last.
    expect(error.route?.hops).toEqual([
      { model: 'community/streamer', outcome: 'failed', reason: 'model_busy' },
      { model: 'community/general', outcome: 'ended', code: 'timeout' },
    ]);
    expect(error.message).toMatch(
      /^Every model tried failed \(2 attempts\): "community\/streamer": model_busy .*; "community\/general": timeout /,
    );
    expect(only(events, 'done')).toMatchObject([{ ok: false }]);
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await idle(client);
    expect(client.budget.active).toBe(0);
  });

  it('the caller aborting while both attempts are in flight: the route has both', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway);
    const release = gateway.hold();
    const controller = new AbortController();
    const call = caught(
      () =>
        client.chat(hi(), {
          signal: controller.signal,
          fallbackModels: ['community/streamer'],
          hedge: { afterMs: 30, maxExtra: 1 },
        }),
      isGatewayError,
    );
    await gateway.untilHeld(2);
    controller.abort();
    const error = await call;
    release();
    expect(only(events, 'attempt').map((event) => event.model)).toEqual([
      'community/general',
      'community/streamer',
    ]);
    expect(error.code).toBe('aborted');
    expect(error.route?.hops).toEqual([
      { model: 'community/streamer', outcome: 'ended', code: 'aborted' },
      { model: 'community/general', outcome: 'ended', code: 'aborted' },
    ]);
    // The call's own end, said as a call without a hedge says it: no model failed (rv-steer F10).
    expect(error.message).toBe('The call was aborted');
  });

  it("the call's deadline while both attempts are in flight: a timeout, said as one, the route has both", async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway);
    held(gateway.emulator, 'community/general');
    held(gateway.emulator, 'community/streamer');
    driveClock();
    const call = client
      .chat(hi(), {
        timeoutMs: 300,
        fallbackModels: ['community/streamer'],
        hedge: { afterMs: 100, maxExtra: 1 },
      })
      .catch((error: unknown) => error);
    const error = await settledAfter(300, call);
    expect(isGatewayError(error) && error.code).toBe('timeout');
    const unhedged = await emulate();
    held(unhedged.emulator, 'community/general');
    const alone = clientOn(unhedged)
      .chat(hi(), { timeoutMs: 300, fallbackModels: ['community/streamer'] })
      .catch((failure: unknown) => failure);
    const expected = await settledAfter(300, alone);
    expect((error as Error).message).toBe((expected as Error).message);
    expect(isGatewayError(error) && error.route?.hops).toEqual([
      { model: 'community/streamer', outcome: 'ended', code: 'timeout' },
      { model: 'community/general', outcome: 'ended', code: 'timeout' },
    ]);
  });

  it('a first attempt waiting for its retry when the hedge wins: no hop for the retry never sent', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    // The first attempt's 502 comes once the hedge is sent; the hedge answers once the first run
    // has scheduled its retry (a wait of the backoff, far longer than the test).
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 1 });
    const { promise: sent, resolve: hedgeSent } = deferred();
    const { promise: scheduled, resolve: retryScheduled } = deferred();
    const { promise: done, resolve: ended } = deferred();
    const fetch = beforeEachChat(emulator, async (chat) => {
      if (chat === 1) await sent;
      else {
        hedgeSent();
        await scheduled;
      }
    });
    const events: GatewayEvent[] = [];
    const client = clientOn(gateway, {
      fetch,
      retryBaseDelayMs: 60_000,
      onEvent: (event) => {
        if (event.operation !== 'chat') return;
        events.push(event);
        if (event.type === 'retry') retryScheduled();
        if (event.type === 'done') ended();
      },
    });
    const result = await client.chat(hi(), HEDGED_AT_30);
    expect(result.servedModel).toBe('community/streamer');
    // One hop per attempt sent: the first model's failure, the hedge's answer.
    expect(result.route.hops).toEqual([
      { model: 'community/general', outcome: 'failed', reason: 'all_providers_failed' },
      { model: 'community/streamer', outcome: 'answered' },
    ]);
    // The retry was scheduled (its event), and never sent: the call ended during its wait.
    expect(only(events, 'retry')).toMatchObject([{ attempt: 1, reason: 'all_providers_failed' }]);
    expect(only(events, 'attempt')).toHaveLength(2);
    // (The call's end waits for its cut first run to end: the answer does not.)
    await done;
    expect(only(events, 'done')).toMatchObject([{ ok: true, attempts: 2 }]);
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('a first attempt waiting to retry a 500 when the hedge wins: its 500 is its hop, no lost hop', async () => {
    // The first attempt's 500 comes at once; its retry waits the backoff (far beyond the test):
    // the hedge, sent after 30 ms, answers while the first run sits in that wait.
    const { emulator, client, events } = await faulted(
      { fault: 'upstream_text', times: 1 },
      { retryBaseDelayMs: 60_000 },
    );
    driveClock();
    const stream = await settledAfter(30, client.chatStream(hi(), HEDGED_AT_30));
    expect((await stream.result()).text).toBe('Echo: hello there');
    // The retry was scheduled before the hedge was sent, and never sent.
    const order = events.filter((event) => event.type === 'retry' || event.type === 'hedge');
    expect(order).toMatchObject([
      { type: 'retry', reason: 'upstream_error', status: 500 },
      { type: 'hedge', phase: 'sent', from: 'community/general', model: 'community/streamer' },
      { type: 'hedge', phase: 'won', winner: 'hedge' },
    ]);
    // No request of the first run was in flight: nothing of it was lost (rv-2hedge F3a).
    expect(only(events, 'hedge')[1]).not.toHaveProperty('lost');
    expect(emulator.counters.requests.chat).toBe(2);
    // One hop per attempt sent: the first's 500 (a failure retried on its own model), the hedge's
    // answer; no `lost` hop, as no request of the first run was in flight.
    expect(stream.route.hops).toEqual([
      { model: 'community/general', outcome: 'ended', code: 'upstream_error' },
      { model: 'community/streamer', outcome: 'answered' },
    ]);
  });

  it.each([
    ['a 500', 'upstream_text', { outcome: 'ended', code: 'upstream_error' }],
    // (Read whole within its attempt, a body not JSON is a failover reason: a failed hop.)
    [
      'an answer that cannot be read',
      'truncated_json',
      { outcome: 'failed', reason: 'invalid_response' },
    ],
  ] as const)(
    'a hedge that failed (%s) before the slow first attempt answered: its failure is its hop, not lost',
    async (_what, fault, hop) => {
      // The first answers after 200 ms; the hedge, sent at 30 ms, fails at once (no retry: a
      // hedge is one attempt).
      const { emulator, client, events } = await faulted({
        fault: 'stall_first_chunk',
        ms: 200,
      });
      emulator.injectFault({ fault, model: 'community/streamer' });
      driveClock();
      const result = await settledAfter(200, client.chat(hi(), HEDGED_AT_30));
      expect(result.servedModel).toBe('community/general');
      expect(only(events, 'hedge')).toMatchObject([
        { phase: 'sent', model: 'community/streamer' },
        { phase: 'won', winner: 'first' },
      ]);
      // Nothing was cut: the hedge had failed on its own, so the `won` event names no loser.
      expect(only(events, 'hedge')[1]).not.toHaveProperty('lost');
      // The same hop the call's error route gives the hedge's failure.
      expect(result.route.hops).toEqual([
        { model: 'community/streamer', ...hop },
        { model: 'community/general', outcome: 'answered' },
      ]);
    },
  );

  it('the first answering while the hedge waits for its slot: no hedge sent, none reported', async () => {
    const gateway = await emulate();
    // A shared budget answers `acquireIfFree` later (a Redis round trip): here, when the test says.
    const { budget, asked, answer, givenBack } = slowIfFreeBudget();
    const { client, events } = recordingClient(gateway, { budget });
    const release = gateway.hold();
    const call = client.chat(hi(), HEDGED_AT_30);
    await asked;
    release();
    const result = await call;
    answer();
    await givenBack;
    expect(result.route.hops).toEqual([{ model: 'community/general', outcome: 'answered' }]);
    // No second attempt: no `hedge` event says one was sent, no `hedge-skipped` says why not.
    expect(only(events, 'hedge')).toEqual([]);
    expect(only(events, 'hedge-skipped')).toEqual([]);
    expect(only(events, 'attempt')).toHaveLength(1);
    expect(gateway.emulator.counters.requests.chat).toBe(1);
  });

  it('hedges a stream whose first model sends only keep-alive comments', async () => {
    const { client } = await faulted({
      fault: 'keepalive_first_chunk',
      ms: FOREVER,
      intervalMs: 10,
    });
    const stream = await client.chatStream(hi(), {
      fallbackModels: ['community/streamer'],
      hedge: { afterMs: 60, maxExtra: 1 },
    });
    expect((await stream.result()).text).toBe('Echo: hello there');
    expect(stream.servedModel).toBe('community/streamer');
  });

  it("'auto' waits for the model's running p95 once it has seen enough answers", async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway);
    const { emulator } = gateway;
    // The answers 'auto' learns from: every steered call's are recorded, these hedged at 60 s
    // (never: the driven clock stands still while they are answered).
    driveClock();
    for (let i = 0; i < AUTO_HEDGE.learnedAt; i++) {
      await settledAfter(0, client.chat(hi(), { hedge: { afterMs: 60_000 } }));
    }
    expect(only(events, 'hedge')).toEqual([]);
    held(emulator, 'community/general');
    const result = await settledAfter(
      50,
      client.chat(hi(), { hedge: { afterMs: 'auto', maxExtra: 1 } }),
    );
    expect(result.route.hops.at(-1)).toEqual({ model: 'community/general', outcome: 'answered' });
    const [sent] = only(events, 'hedge');
    // Answers in 0 ms on the driven clock: their p95 is below the 50 ms floor, so the floor.
    expect(sent?.waitedMs).toBe(50);
  });

  it("'auto' over 20 answers waits their 19th quickest, not the slowest one", async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway);
    const { emulator } = gateway;
    driveClock();
    // 19 answers in 100 ms and one in 300 ms, on the driven clock: their p95 is 100 ms.
    emulator.injectFault({ fault: 'slow_headers', model: 'community/general', ms: 100, times: 19 });
    emulator.injectFault({ fault: 'slow_headers', model: 'community/general', ms: 300, times: 1 });
    for (let i = 0; i < 20; i++) {
      const wait = i < 19 ? 100 : 300;
      await settledAfter(wait, client.chat(hi(), { hedge: { afterMs: 60_000 } }));
    }
    held(emulator, 'community/general');
    await settledAfter(100, client.chat(hi(), { hedge: { afterMs: 'auto', maxExtra: 1 } }));
    expect(only(events, 'hedge')[0]).toMatchObject({ phase: 'sent', waitedMs: 100 });
  });

  it("'auto' learns from a cut first attempt too: it took at least until the hedge won", async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway);
    const { emulator, baseURL } = gateway;
    const stream = true;
    const call = async (hedge: { afterMs: number | 'auto'; maxExtra: number }) =>
      (await client.chatStream(hi(), { hedge })).result();
    // 16 quick answers (never hedged), on real timers; their p95 is the slowest of them.
    for (let i = 0; i < AUTO_HEDGE.learnedAt; i++) await call({ afterMs: 60_000, maxExtra: 1 });
    const id = budgetId(baseURL, DEFAULT_KEYS.full);
    // Whole milliseconds: the driven clock keeps a fraction only to the nanosecond, so a delay
    // learnt on real timers (368.14901299999836) would come back as a sample just below it.
    const after = Math.max(
      400,
      Math.ceil(hedgeDelay('auto', id, 'community/general', stream)) + 200,
    );
    // 4 first attempts held, each cut when its hedge (sent after `after` ms) wins.
    driveClock();
    for (let i = 0; i < 4; i++) {
      held(emulator, 'community/general');
      await settledAfter(after, call({ afterMs: after, maxExtra: 1 }));
    }
    // 20 samples, the 4 cut ones ≥ `after`, which is above every quick one: the p95 is a cut one.
    expect(hedgeDelay('auto', id, 'community/general', stream)).toBeGreaterThanOrEqual(after);
  });

  it('a fresh key starts with one hedge: its first slow call is hedged, the next says cap', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { maxRetries: 0 });
    const { emulator } = gateway;
    held(emulator, 'community/general');
    driveClock();
    await settledAfter(50, client.chat(hi(), { hedge: { afterMs: 50 } }));
    held(emulator, 'community/general');
    const error = await settledAfter(
      500,
      caught(() => client.chat(hi(), { hedge: { afterMs: 50 }, timeoutMs: 500 }), isGatewayError),
    );
    expect(error.code).toBe('timeout');
    const callIds = only(events, 'start').map((event) => event.callId);
    const sent = only(events, 'hedge').filter((event) => event.phase === 'sent');
    expect(sent.map((event) => event.callId)).toEqual([callIds[0]]);
    // The second call earned 0.1 of a hedge (the default maxExtra): not sent, and it says why, once.
    expect(only(events, 'hedge-skipped')).toMatchObject([
      { callId: callIds[1], model: 'community/general', reason: 'cap' },
    ]);
    expect(emulator.counters.requests.chat).toBe(3);
  });

  it('a hedge never sent for want of a free slot is given back: the next slow call is hedged', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { maxConcurrency: 2 });
    const { emulator } = gateway;
    held(emulator, 'community/streamer');
    held(emulator, 'community/general', 2);
    driveClock();
    // A call holding the second slot: the first slow call's hedge finds none free.
    const filler = new AbortController();
    const filling = client.chat(hi('community/streamer'), { signal: filler.signal });
    await untilRequests(emulator, 1, { what: 'the call holding the second slot' });
    await settledAfter(
      200,
      caught(() => client.chat(hi(), { hedge: { afterMs: 50 }, timeoutMs: 200 }), isGatewayError),
    );
    expect(only(events, 'hedge-skipped')).toMatchObject([{ reason: 'no_free_slot' }]);
    filler.abort();
    await caught(() => filling, isGatewayError);
    await idle(client);
    // The fresh key's one hedge, given back, is this call's (0.1 earned since would not do).
    await settledAfter(50, client.chat(hi(), { hedge: { afterMs: 50 } }));
    expect(only(events, 'hedge').filter((event) => event.phase === 'sent')).toHaveLength(1);
  });

  it('a small maxExtra still saves up 2 hedges: two slow calls in a row are both hedged', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway);
    const { emulator } = gateway;
    // maxExtra × 40 is 1.6: at least 2 are kept all the same. 30 quick calls fill the allowance.
    const hedge = { afterMs: 50, maxExtra: 0.04 };
    driveClock();
    for (let i = 0; i < 30; i++) await settledAfter(0, client.chat(hi(), { hedge }));
    for (let i = 0; i < 2; i++) {
      held(emulator, 'community/general');
      await settledAfter(50, client.chat(hi(), { hedge }));
    }
    expect(only(events, 'hedge').filter((event) => event.phase === 'sent')).toHaveLength(2);
    expect(only(events, 'hedge-skipped')).toEqual([]);
  });

  it('asks for the hedge once per call: a failover after a skipped hedge does not ask again', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { maxConcurrency: 1 });
    const { emulator } = gateway;
    // Every request held (a walk goes round its models again after each stalls once).
    held(emulator, 'community/general', 10);
    held(emulator, 'community/streamer', 10);
    const error = await chatFailureAt(client, {
      fallbackModels: ['community/streamer'],
      firstChunkTimeoutMs: 200,
      hedge: { afterMs: 30, maxExtra: 1 },
      timeoutMs: 1_000,
    });
    expect(error.code).toBe('timeout');
    // The first model stalled, the call moved on (a second request, and more), never hedged.
    expect(only(events, 'failover').length).toBeGreaterThanOrEqual(1);
    expect(only(events, 'hedge')).toEqual([]);
    expect(only(events, 'hedge-skipped')).toMatchObject([{ reason: 'no_free_slot' }]);
  });

  it('says no_candidate when no model has free capacity for the hedge (the slow one is full)', async () => {
    // One request at a time on the model: the first attempt's fills it.
    const gateway = await emulate({
      scenario: {
        models: { 'community/general': { capacity: 1 } },
      },
    });
    const { emulator } = gateway;
    held(emulator, 'community/general');
    expect(await timesOutUnhedged(recordingClient(gateway), 500)).toMatchObject([
      { model: 'community/general', reason: 'no_candidate' },
    ]);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it("'auto' hedges a fresh process's first slow call, at its prior", async () => {
    // A fresh base URL: nothing learned for this key and model, its budget fresh.
    const { events } = await hedgedToStreamer({ afterMs: 'auto' });
    const [sent] = only(events, 'hedge');
    expect(sent).toMatchObject({ phase: 'sent', from: 'community/general' });
    expect(sent?.waitedMs).toBe(AUTO_HEDGE.priorMs.stream);
  });

  it('names the winner as the answering model when the gateway sends no X-Service-Model', async () => {
    const gateway = await emulate();
    const { events, another } = clientsSharingEvents(gateway);
    const { emulator } = gateway;
    // The hedge (to the streamer) is held; the first attempt answers once its hedge is sent, so
    // the first wins after the hedge was the last request sent.
    held(emulator, 'community/streamer');
    const { promise: second, resolve: hedgeSent } = deferred();
    const ordered = beforeEachChat(emulator, async (chat) => {
      if (chat === 1) await second;
      else hedgeSent();
    });
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await ordered(input, init);
      const headers = new Headers(response.headers);
      headers.delete('x-service-model');
      return new Response(response.body, { status: response.status, headers });
    };
    const client = another({ fetch });
    const stream = await client.chatStream(hi(), HEDGED_AT_30);
    expect((await stream.result()).text).toBe('Echo: hello there');
    expect(only(events, 'hedge').at(-1)).toMatchObject({
      phase: 'won',
      winner: 'first',
      model: 'community/general',
      lost: 'community/streamer',
    });
    expect(only(events, 'done')).toMatchObject([{ ok: true, servedModel: 'community/general' }]);
    expect(only(events, 'fallback')).toEqual([]);
  });

  it.each(READ_WAYS)(
    "%s: done is the last event, after the cut attempt's response (aborted) and released",
    async (_, stream) => {
      const events = await hedgedUntilDone(stream);
      // A handler forgets the call at `done` (otelEvents ends its spans): nothing may follow it.
      expect(events.at(-1)?.type).toBe('done');
      const cut = events.filter((event) => 'attempt' in event && event.attempt === 1);
      expect(cut.map((event) => event.type)).toEqual(ONE_ATTEMPT);
      expect(cut[3]).toMatchObject({ ok: false, code: 'aborted' });
      // A stream's headers came before it stalled (a whole answer's did not): its cut attempt says
      // their status.
      expect(cut[3]).toMatchObject(stream ? { status: 200 } : {});
    },
  );

  it.each(READ_WAYS)(
    "%s: each attempt's response durationMs is from its own request (not the hedge's)",
    async (_, stream) => {
      const responses = only(await hedgedUntilDone(stream), 'response');
      // The first request ran 50 ms (the hedge's wait) until the hedge's answer cut it; the hedge's
      // own answer came at once (the driven clock stood still).
      expect(responses.find((event) => event.attempt === 1)?.durationMs).toBeGreaterThanOrEqual(50);
      expect(responses.find((event) => event.attempt === 2)?.durationMs).toBeLessThan(50);
    },
  );

  it.each(READ_WAYS)(
    '%s: a cut attempt slow to end delays the done event, not the answer',
    async (_, stream) => {
      // The first request is never answered, and its abort is honoured only when the test says (a
      // fetch slow to give up): the hedge's answer must reach the caller meanwhile.
      const { events, done, letGo, answered } = await hedgedOverHeldFirst(stream);
      expect((await settledAfter(50, answered)).text).toBe('Echo: hello there');
      expect(only(events, 'done')).toEqual([]);
      letGo();
      await settledAfter(0, done);
      expect(events.at(-1)?.type).toBe('done');
      expect(only(events, 'response').find((event) => event.attempt === 1)).toMatchObject({
        ok: false,
        code: 'aborted',
      });
    },
  );

  it.each(READ_WAYS)(
    '%s: a cut attempt that never ends holds the done event only its grace, then nothing follows done',
    async (_, stream) => {
      // The first request's fetch ignores its abort until the test lets it go (a wrapper that
      // queues requests): the call's done must not wait for it past the cut request's grace.
      const { events, done, letGo, answered } = await hedgedOverHeldFirst(stream);
      // The hedge goes at 50 ms and wins at once, cutting the first request.
      expect((await settledAfter(50, answered)).text).toBe('Echo: hello there');
      await vi.advanceTimersByTimeAsync(CUT_REQUEST_GRACE_MS - 10);
      expect(only(events, 'done')).toEqual([]);
      await settledAfter(10, done);
      expect(only(events, 'done')).toMatchObject([{ ok: true }]);
      // The cut attempt ends at last: what it reports comes after done, and is dropped.
      letGo();
      await vi.advanceTimersByTimeAsync(CUT_REQUEST_GRACE_MS);
      expect(only(events, 'done')).toHaveLength(1);
      expect(events.at(-1)?.type).toBe('done');
    },
  );

  it('leaks no slot over many hedged calls', async () => {
    const { emulator, client } = await faulted({
      fault: 'stall_first_chunk',
      ms: 80,
      every: 3,
    });
    driveClock();
    const calls = Promise.all(
      Array.from({ length: 60 }, () =>
        client
          .chatStream(hi(), {
            fallbackModels: ['community/streamer'],
            hedge: { afterMs: 20, maxExtra: 0.5 },
          })
          .then((stream) => stream.result()),
      ),
    );
    // 60 calls, 4 at a time, one request in 3 stalled 80 ms: done within 2 s of the driven clock.
    await settledAfter(2_000, calls);
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await idle(client);
    expect(client.budget.active).toBe(0);
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBeLessThanOrEqual(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
  });
});
