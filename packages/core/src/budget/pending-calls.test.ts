// client.budget counts a client's calls from their start to their end: a call waiting on its gate's
// catalog read, or sleeping before a retry, holds no slot, yet the client is not idle then, and
// whenIdle() (a graceful drain) waits for it. Each way a call ends takes it out of the count once.
import { join } from 'node:path';
import { drivenClock, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { COLLECT_UNTIL } from '../../test/collect-until';
import { caught, DEFAULT_KEYS, hi, runWithGc } from '../../test/helpers';
import { createGatewayClient } from '../client/client';
import type { GatewayClientOptions } from '../client/options';
import type { GatewayEvent } from '../events/gateway-events';

const gateway = await emulate({ hooks: { afterEach, afterAll } });

afterEach(() => {
  vi.useRealTimers();
});

const clientOf = (options: GatewayClientOptions = {}) =>
  createGatewayClient({ ...gateway.connection, ...options });

/** The budget's counts, as a drain reads them. */
const countsOf = (client: ReturnType<typeof clientOf>) => {
  const { active, queued, pendingCalls, isIdle } = client.budget;
  return { active, queued, pendingCalls, isIdle };
};

/** Once `client` is idle, its count must be 0: a call counted twice, or never ended, fails here. */
async function drained(client: ReturnType<typeof clientOf>): Promise<void> {
  await client.budget.whenIdle();
  expect(countsOf(client)).toEqual({ active: 0, queued: 0, pendingCalls: 0, isIdle: true });
}

describe('client.budget counts calls that hold no slot', () => {
  it('3 chat calls waiting on their gate catalog read: pending, and whenIdle waits for all 3', async () => {
    const client = clientOf();
    const release = gateway.hold('models');
    let settled = 0;
    const calls = [1, 2, 3].map(() =>
      client.chat(hi()).finally(() => {
        settled++;
      }),
    );
    expect(countsOf(client)).toMatchObject({ pendingCalls: 3, isIdle: false });
    const idle = client.budget.whenIdle().then(() => ({
      settled,
      chatRequests: gateway.counters.requests.chat ?? 0,
    }));
    await gateway.untilHeld(1);
    release();
    expect(await idle).toEqual({ settled: 3, chatRequests: 3 });
    expect((await Promise.all(calls)).map((result) => result.servedModel)).toHaveLength(3);
    await drained(client);
  });

  it('a chat call in its Retry-After wait: pending, not idle, and whenIdle resolves with it', async () => {
    const events: GatewayEvent[] = [];
    let retried = () => {};
    const retrying = new Promise<void>((resolve) => {
      retried = resolve;
    });
    const client = clientOf({
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'retry') retried();
      },
    });
    await client.models();
    gateway.emulator.injectFault({
      fault: 'model_busy',
      endpoint: 'chat',
      times: 1,
      retryAfter: 1,
    });
    const clock = drivenClock(vi);
    clock.drive();
    const call = client.chat(hi());
    await retrying;
    expect(countsOf(client)).toEqual({ active: 0, queued: 0, pendingCalls: 1, isIdle: false });
    let idle = false;
    const drain = client.budget.whenIdle().then(() => {
      idle = true;
    });
    await vi.advanceTimersByTimeAsync(900);
    expect(idle).toBe(false);
    const result = await clock.settledOnSteps(call);
    await clock.settledOnSteps(drain);
    expect(result.answer.text).toContain('Echo');
    expect(events.filter((event) => event.type === 'retry')).toHaveLength(1);
    expect(countsOf(client)).toEqual({ active: 0, queued: 0, pendingCalls: 0, isIdle: true });
  });

  it('a service call and a catalog read are pending while they run', async () => {
    const client = clientOf();
    const release = gateway.hold('models');
    const listed = client.models();
    expect(client.budget.pendingCalls).toBe(1);
    await gateway.untilHeld(1);
    release();
    await listed;
    const embedHeld = gateway.hold('embeddings');
    const embedded = client.embed({ model: 'multilingual-e5-base', input: 'x' });
    expect(client.budget.pendingCalls).toBe(1);
    await gateway.untilHeld(1);
    expect(countsOf(client)).toMatchObject({ pendingCalls: 1, isIdle: false });
    embedHeld();
    await embedded;
    await drained(client);
  });
});

describe('every way a call ends takes it out of the count once', () => {
  it('chat calls that fail: a refused request, option or model, an error answer, an abort in the catalog wait', async () => {
    const client = clientOf({ maxRetries: 0 });
    const failures = [
      () => client.chat({ model: 'community/general', messages: [] }),
      () => client.chat(hi(), { timeoutMs: -1 }),
      () => client.chat(hi('community/no-such-model')),
      () => client.chatStream(hi('community/no-such-model')),
      () => client.embed({ input: 'x', signal: AbortSignal.abort() } as never),
    ];
    for (const fail of failures) {
      expect(await caught(fail)).toBeInstanceOf(Error);
      expect(client.budget.pendingCalls).toBe(0);
    }
    gateway.emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat', times: 2 });
    expect((await caught(() => client.chat(hi()))).code).toBe('all_providers_failed');
    expect((await caught(() => client.chatStream(hi()))).code).toBe('all_providers_failed');
    expect(client.budget.pendingCalls).toBe(0);
    // Aborted while its gate waits on the catalog read (another client's read: a fresh catalog).
    const waiting = clientOf();
    const release = gateway.hold('models');
    const controller = new AbortController();
    const aborted = caught(() => waiting.chat(hi(), { signal: controller.signal }));
    expect(waiting.budget.pendingCalls).toBe(1);
    await gateway.untilHeld(1);
    controller.abort();
    expect((await aborted).code).toBe('aborted');
    expect(waiting.budget.pendingCalls).toBe(0);
    release();
    await drained(waiting);
    await drained(client);
  });

  it('a stream counts until its body ends: read whole, broken off, cancelled, aborted, cut, failed over', async () => {
    const client = clientOf({ maxRetries: 0 });
    await client.models();
    const read = await client.chatStream(hi());
    expect((await read.result()).text).toContain('Echo');
    expect(client.budget.pendingCalls).toBe(0);

    // Its body paused after a chunk: the call is pending until its caller ends it.
    const stalled = {
      fault: 'stall_stream',
      endpoint: 'chat',
      afterChunks: 3,
      ms: 60_000,
    } as const;
    gateway.emulator.injectFault(stalled);
    const broken = await client.chatStream(hi());
    expect(client.budget.pendingCalls).toBe(1);
    for await (const _event of broken) break;
    expect(client.budget.pendingCalls).toBe(0);

    const cancelled = await client.chatStream(hi());
    expect(client.budget.pendingCalls).toBe(1);
    await cancelled.cancel();
    expect(client.budget.pendingCalls).toBe(0);

    const controller = new AbortController();
    const aborted = await client.chatStream(hi(), { signal: controller.signal });
    expect(client.budget.pendingCalls).toBe(1);
    controller.abort();
    expect((await caught(() => aborted.result())).code).toBe('aborted');
    expect(client.budget.pendingCalls).toBe(0);
    gateway.emulator.clearFaults();

    gateway.emulator.injectFault({ fault: 'stream_cut', endpoint: 'chat', times: 1 });
    const cut = await client.chatStream(hi());
    expect(await caught(() => cut.result())).toBeInstanceOf(Error);
    expect(client.budget.pendingCalls).toBe(0);

    gateway.emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 1 });
    const steered = await client.chatStream(hi(), { fallbackModels: ['community/streamer'] });
    expect((await steered.result()).text).toContain('Echo');
    await drained(client);
  });

  it('a stream dropped unread counts until it is collected, then once', async () => {
    const dist = (...path: string[]) =>
      JSON.stringify(join(import.meta.dirname, '..', '..', ...path));
    const script = `${COLLECT_UNTIL}
const { createGatewayClient } = await import(${dist('dist', 'index.js')});
const { emulate } = await import(${dist('node_modules', '@infergate', 'emulator', 'dist', 'testing.js')});
// Bodies paused after a chunk (for a minute): only their collection ends them.
const gateway = await emulate({ apiKey: ${JSON.stringify(DEFAULT_KEYS.full)}, scenario: { faults: [{ fault: 'stall_stream', endpoint: 'chat', afterChunks: 3, ms: 60000 }] } });
const client = createGatewayClient(gateway.connection);
await client.models();
const open = async () => { await client.chatStream({ model: 'community/general', messages: [{ role: 'user', content: 'hi' }] }); };
await open();
await open();
const dropped = client.budget.pendingCalls;
await collectUntil(() => client.budget.pendingCalls === 0);
console.log(JSON.stringify({ dropped, collected: client.budget.pendingCalls }));
process.exit(0);
`;
    const outcome = await runWithGc(script, join(import.meta.dirname, '..', '..'));
    expect(outcome).toEqual({ dropped: 2, collected: 0 });
  });
});
