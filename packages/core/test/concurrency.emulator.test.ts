import { createEmulator } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import {
  createGatewayClient,
  createInProcessBudget,
  isGatewayError,
  type KeyBudget,
} from '../src/index';
import { clientOn, DEFAULT_KEYS, driveClock, hi, idle, settledAfter } from './helpers';

const key = DEFAULT_KEYS.full;

describe('concurrency budget', () => {
  it('50 concurrent calls on one key never exceed 4 in flight and all succeed', async () => {
    const gateway = await emulate({ scenario: { latencyMs: 2 } });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => client.chat(hi('community/general', `n${i}`))),
    );
    expect(results.map((r) => r.response.choices[0]?.message.content)).toEqual(
      Array.from({ length: 50 }, (_, i) => `Echo: n${i}`),
    );
    expect(emulator.counters.maxInflight[key]).toBe(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
    expect(client.budget.isIdle).toBe(true);
  });

  it('is shared by every client object on the same base URL and key, streams and catalog included', async () => {
    const gateway = await emulate({ scenario: { latencyMs: 2, streamChunkDelayMs: 1 } });
    const client = clientOn(gateway);
    const another = (extra: GatewayClientOptions = {}) => clientOn(gateway, { ...extra });
    const { emulator } = gateway;
    const other = another();
    const third = another({ maxConcurrency: 8 });
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i++) {
      calls.push(client.chat(hi()));
      calls.push(other.chatStream(hi('community/general', 'a b c d')).then((s) => s.result()));
      calls.push(third.models());
      client.refreshCatalog();
    }
    await Promise.all(calls);
    // A client allowing 8 still shares the key's 4 with the others.
    expect(emulator.counters.maxInflight[key]).toBe(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
    expect(client.budget.isIdle && other.budget.isIdle).toBe(true);
  });

  it('keeps 4 in flight with the default limit across two clients', async () => {
    const gateway = await emulate({ scenario: { latencyMs: 2, streamChunkDelayMs: 1 } });
    const client = clientOn(gateway);
    const another = (extra: GatewayClientOptions = {}) => clientOn(gateway, { ...extra });
    const { emulator } = gateway;
    const other = another();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? client.chat(hi())
          : other.chatStream(hi('community/general', 'x y z')).then((s) => s.result()),
      ),
    );
    expect(emulator.counters.maxInflight[key]).toBe(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
  });

  it('a stream holds its slot while its body is being received', async () => {
    const gateway = await emulate({ scenario: { streamChunkDelayMs: 5 } });
    const client = clientOn(gateway);
    const stream = await client.chatStream(hi('community/general', 'a b c d'));
    expect(client.budget.active).toBe(1);
    await stream.result();
    expect(client.budget.active).toBe(0);
  });

  it('is exposed as { limit, active, queued, isIdle, whenIdle }', async () => {
    const gateway = await emulate({ scenario: { latencyMs: 5 } });
    const client = clientOn(gateway, { maxConcurrency: 2 });
    // (The catalog read first: the gate would read it before the calls ask for their slots.)
    await client.models();
    const calls = Array.from({ length: 5 }, () => client.chat(hi()));
    await Promise.resolve();
    expect(client.budget.limit).toBe(2);
    expect(client.budget.active).toBe(2);
    expect(client.budget.queued).toBe(3);
    expect(client.budget.isIdle).toBe(false);
    await Promise.all(calls);
    await client.budget.whenIdle();
    expect(client.budget.isIdle).toBe(true);
  });
});

describe('the key budget across clients (the key allows 4 at once, whatever each client allows)', () => {
  it('a maxConcurrency: 8 client never pushes default clients into 429s', async () => {
    const gateway = await emulate({ scenario: { latencyMs: 5 } });
    const client = clientOn(gateway);
    const another = (extra: GatewayClientOptions = {}) => clientOn(gateway, { ...extra });
    const { emulator } = gateway;
    const wide = another({ maxConcurrency: 8 });
    await Promise.all([
      ...Array.from({ length: 16 }, () => wide.chat(hi())),
      ...Array.from({ length: 8 }, () => client.chat(hi())),
    ]);
    expect(emulator.counters.maxInflight[key]).toBe(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
  });

  it("a maxConcurrency: 1 client's backlog never makes a default client wait while slots are free", async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const narrow = clientOn(gateway, { maxConcurrency: 1 });
    // (The catalog reads first: a chat call's gate would read it, and a read is in flight too.)
    await Promise.all([client.models(), narrow.models()]);
    // Held, not slow: the state checked lasts until the test releases it, however busy the machine.
    const release = gateway.hold();
    const order: string[] = [];
    const backlog = Array.from({ length: 4 }, (_, i) =>
      narrow.chat(hi()).then(() => order.push(`narrow-${i}`)),
    );
    await gateway.untilHeld(1);
    const other = client.chat(hi()).then(() => order.push('default'));
    // The narrow client's backlog queues behind its own limit, not in the key's queue (nor on its
    // slots): the default call goes out while narrow-0 is still held.
    await gateway.untilHeld(2, { what: 'the default call in flight beside narrow-0' });
    expect(client.budget.active).toBe(2);
    expect(narrow.budget.queued).toBe(3);
    expect(gateway.counters.requests.chat).toBe(2);
    release();
    await Promise.all([...backlog, other]);
    expect(order.indexOf('default')).toBeLessThan(order.indexOf('narrow-1'));
  });

  it('one budget per normalised origin and key: spellings of one gateway share the 4 slots', async () => {
    const emulator = createEmulator({ latencyMs: 5 });
    const fetch = emulator.fetch;
    const spellings = [
      'http://127.0.0.1:7431/v1',
      'http://localhost:7431',
      'HTTP://LOCALHOST:7431/V1/',
      'http://[::1]:7431/v1',
    ];
    const clients = spellings.map((baseURL) =>
      createGatewayClient({ baseURL, apiKey: DEFAULT_KEYS.full, fetch }),
    );
    expect(clients[2]!.baseURL).toBe('http://localhost:7431/v1');
    await Promise.all(clients.flatMap((c) => Array.from({ length: 4 }, () => c.chat(hi()))));
    expect(emulator.counters.maxInflight[key]).toBe(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
  });

  it('takes any KeyBudget: asks it per request with a hashed id, the key limit, a signal and the deadline', async () => {
    const inner = createInProcessBudget();
    const requests: { id: string; limit: number; deadline: number; hasSignal: boolean }[] = [];
    let released = 0;
    const budget: KeyBudget = {
      async acquire(request) {
        requests.push({
          id: request.id,
          limit: request.limit,
          deadline: request.deadline,
          hasSignal: request.signal instanceof AbortSignal,
        });
        const lease = await inner.acquire(request);
        return {
          release: () => {
            released++;
            lease.release();
          },
        };
      },
      state: (id) => inner.state?.(id),
    };
    const gateway = await emulate({ scenario: { latencyMs: 2 } });
    const client = clientOn(gateway, { budget, maxConcurrencyPerKey: 2 });
    const { emulator } = gateway;
    // (The catalog read first, not counted: the gate's read takes a slot of the budget too.)
    await client.models();
    requests.length = 0;
    released = 0;
    const before = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => client.chat(hi())));
    expect(requests).toHaveLength(6);
    expect(released).toBe(6);
    expect(new Set(requests.map((r) => r.id)).size).toBe(1);
    expect(requests[0]!.id).not.toContain(DEFAULT_KEYS.full);
    expect(requests.every((r) => r.limit === 2 && r.hasSignal)).toBe(true);
    expect(requests[0]!.deadline).toBeGreaterThanOrEqual(before + 300_000);
    expect(emulator.counters.maxInflight[key]).toBe(2);
    expect(client.budget.isIdle).toBe(true);
  });

  it('refuses a budget that is not a KeyBudget, and null options, with configuration_error', () => {
    expect(() =>
      createGatewayClient({ baseURL: 'https://g', apiKey: 'k', budget: {} as KeyBudget }),
    ).toThrowError(expect.objectContaining({ code: 'configuration_error', field: 'budget' }));
    expect(() => createGatewayClient(null as never)).toThrowError(
      expect.objectContaining({ code: 'configuration_error' }),
    );
  });
});

describe('abort and deadline', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborting a queued call removes it from the queue with code aborted and the reason as cause', async () => {
    const gateway = await emulate({ scenario: { latencyMs: 20 } });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    // (The catalog read first: the gate would read it before the calls ask for their slots.)
    await client.models();
    const running = Array.from({ length: 4 }, () => client.chat(hi()));
    const controller = new AbortController();
    const queued = caught(() => client.chat(hi(), { signal: controller.signal }), isGatewayError);
    await Promise.resolve();
    expect(client.budget.queued).toBe(1);
    const reason = new Error('user left');
    controller.abort(reason);
    const error = await queued;
    expect(error.code).toBe('aborted');
    expect(error.cause).toBe(reason);
    expect(client.budget.queued).toBe(0);
    await Promise.all(running);
    expect(client.budget.isIdle).toBe(true);
    expect(emulator.counters.requests.chat).toBe(4);
  });

  it('aborting in flight releases the slot', async () => {
    const gateway = await emulate();
    // Held, not slow: the answer cannot come before the abort, however loaded the machine.
    gateway.hold();
    const client = clientOn(gateway);
    const controller = new AbortController();
    const call = caught(() => client.chat(hi(), { signal: controller.signal }), isGatewayError);
    await gateway.untilHeld(1);
    expect(client.budget.active).toBe(1);
    controller.abort();
    expect((await call).code).toBe('aborted');
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await client.budget.whenIdle();
    expect(client.budget.isIdle).toBe(true);
  });

  it('aborting mid-stream raises aborted and releases the slot', async () => {
    const gateway = await emulate({ scenario: { streamChunkDelayMs: 2 } });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const controller = new AbortController();
    const stream = await client.chatStream(hi('community/general', '[[chunks:500]]'), {
      signal: controller.signal,
    });
    let deltas = 0;
    const error = await caught(async () => {
      for await (const event of stream) {
        if (event.type === 'text-delta' && ++deltas === 3) controller.abort('enough');
      }
    }, isGatewayError);
    expect(error.code).toBe('aborted');
    expect(error.cause).toBe('enough');
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await client.budget.whenIdle();
    expect(client.budget.isIdle).toBe(true);
    await gateway.untilCancelled();
    await gateway.untilIdle({ key });
    expect(emulator.counters.inflight[key] ?? 0).toBe(0);
  });

  it('breaking out of for-await cancels the stream and releases the slot', async () => {
    const gateway = await emulate({ scenario: { streamChunkDelayMs: 1 } });
    const client = clientOn(gateway);
    driveClock();
    // (It opens at its first content, one chunk delay in: a role-only chunk does not open it.)
    const stream = await settledAfter(
      1,
      client.chatStream(hi('community/general', '[[chunks:200]]')),
    );
    const firstDelta = (async () => {
      for await (const event of stream) {
        if (event.type === 'text-delta') break;
      }
    })();
    await settledAfter(10, firstDelta);
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await idle(client);
    expect(client.budget.isIdle).toBe(true);
    expect((await caught(() => stream.result(), isGatewayError)).code).toBe('aborted');
  });

  it('cancel() releases the slot', async () => {
    const gateway = await emulate({ scenario: { streamChunkDelayMs: 1 } });
    const client = clientOn(gateway);
    driveClock();
    // (It opens at its first content, one chunk delay in: a role-only chunk does not open it.)
    const stream = await settledAfter(
      1,
      client.chatStream(hi('community/general', '[[chunks:200]]')),
    );
    await stream.cancel('no longer needed');
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await idle(client);
    expect(client.budget.isIdle).toBe(true);
  });

  it('the deadline covers the queue: a call that waits too long times out', async () => {
    const gateway = await emulate({ scenario: { latencyMs: 200 } });
    const client = clientOn(gateway, { maxConcurrency: 1 });
    driveClock();
    // (The catalog read first: the second call must wait in the queue, not on the gate's read.)
    await settledAfter(200, client.models());
    const first = client.chat(hi());
    const second = caught(() => client.chat(hi(), { timeoutMs: 20 }), isGatewayError);
    await Promise.resolve();
    expect(client.budget.queued).toBe(1);
    const error = await settledAfter(20, second);
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('20 ms');
    await settledAfter(200, first);
    expect(client.budget.isIdle).toBe(true);
  });

  // On a driven clock: the scripted stream (1000 chunks, 20 ms apart) is too slow to end before
  // the deadline.
  it('the deadline covers slow headers and a slow stream', async () => {
    const gateway = await emulate({ scenario: { streamChunkDelayMs: 20 } });
    const client = clientOn(gateway, { timeoutMs: 1000 });
    driveClock();
    const slowHeaders = caught(
      () => client.chat(hi(), { headers: { 'X-Emulator-Fault': 'slow_headers; ms=20000' } }),
      isGatewayError,
    );
    expect((await settledAfter(1000, slowHeaders)).code).toBe('timeout');
    // (It opens at its first content, one chunk delay in.)
    const stream = await settledAfter(
      20,
      client.chatStream(hi('community/general', '[[chunks:1000]]')),
    );
    const read = caught(() => stream.result(), isGatewayError);
    expect((await settledAfter(1000, read)).code).toBe('timeout');
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await idle(client);
    expect(client.budget.isIdle).toBe(true);
  });

  it('an already aborted signal sends nothing', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const error = await caught(
      () => client.chat(hi(), { signal: AbortSignal.abort('stop') }),
      isGatewayError,
    );
    expect(error.code).toBe('aborted');
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('a stream nobody reads releases its slot at the deadline', async () => {
    const gateway = await emulate({ scenario: { streamChunkDelayMs: 20 } });
    const client = clientOn(gateway, { timeoutMs: 1000 });
    driveClock();
    // (It opens at its first content, one chunk delay in.)
    const stream = await settledAfter(
      20,
      client.chatStream(hi('community/general', '[[chunks:1000]]')),
    );
    expect(client.budget.active).toBe(1);
    // Not before the deadline: the slot is held while the clock has not reached it.
    await vi.advanceTimersByTimeAsync(999);
    expect(client.budget.active).toBe(1);
    await settledAfter(1 + CUT_REQUEST_GRACE_MS + 20, client.budget.whenIdle());
    expect((await caught(() => stream.result(), isGatewayError)).code).toBe('timeout');
  });

  it('aborting while waiting for Retry-After sends nothing more and releases the slot', async () => {
    const gateway = await emulate();
    let retryTold!: () => void;
    const retrying = new Promise<void>((resolve) => {
      retryTold = resolve;
    });
    const client = clientOn(gateway, {
      onEvent: (event) => event.type === 'retry' && retryTold(),
    });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', retryAfter: 30 });
    const controller = new AbortController();
    const call = caught(() => client.chat(hi(), { signal: controller.signal }), isGatewayError);
    // The 429 answered and read (its `retry` told, not only counted by the gateway: an abort
    // before the client read it cuts its request): the client now waits out its Retry-After.
    await retrying;
    controller.abort();
    expect((await call).code).toBe('aborted');
    expect(client.budget.isIdle).toBe(true);
    expect(emulator.counters.requests.chat).toBe(1);
  });
});
