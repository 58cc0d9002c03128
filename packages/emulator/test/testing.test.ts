import { readFile } from 'node:fs/promises';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createEmulator, DEFAULT_KEYS } from '../src/index';
import {
  budgetSeen,
  caught,
  type EmulateAs,
  type EmulatedGateway,
  emulate,
  steppedClock,
  until,
  watchedChatReads,
} from '../src/testing/index';
import { pollUntil, startRedis } from '../src/testing/redis';
import { gatewaysPerTest } from './helpers';

// The test kit (`@infergate/emulator/testing`): one call makes and closes the emulator as a fetch
// function, msw handlers or a real server; its waits resolve on the emulator's own state changes.

const gatewayAs = gatewaysPerTest();

function chat(gateway: EmulatedGateway, init: { stream?: boolean; signal?: AbortSignal } = {}) {
  return gateway.fetch(`${gateway.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'community/general',
      messages: [{ role: 'user', content: 'hello' }],
      stream: init.stream ?? false,
    }),
    signal: init.signal,
  });
}

describe('emulate', () => {
  it.each<EmulateAs>(['fetch', 'msw', 'http'])('serves the emulator as %s', async (as) => {
    const gateway = await gatewayAs(as);
    expect(gateway.as).toBe(as);
    expect(gateway.apiKey).toBe(DEFAULT_KEYS.full);
    expect(gateway.connection).toEqual({
      baseURL: gateway.baseURL,
      apiKey: gateway.apiKey,
      fetch: gateway.fetch,
    });
    const response = await chat(gateway);
    expect(response.status).toBe(200);
    expect(gateway.counters.requests.chat).toBe(1);
    if (as === 'http') expect(gateway.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('gives each gateway a host of its own (a client budget per test)', async () => {
    const [a, b] = [await gatewayAs('fetch'), await gatewayAs('fetch')];
    expect(a.baseURL).not.toBe(b.baseURL);
  });

  it('gives a host of its own after the kit is evaluated again (vi.resetModules)', async () => {
    const before = await gatewayAs('fetch');
    // Files sharing a worker: one resets the modules, the next evaluates the kit afresh, while
    // core's key budget (kept per realm) still counts an earlier client's slots on its host.
    vi.resetModules();
    const fresh = await import('../src/testing/emulate');
    const after = await fresh.emulate();
    onTestFinished(() => after.close());
    expect(after.baseURL).not.toBe(before.baseURL);
    expect(after.baseURL).not.toBe('https://gateway-1.test/v1');
  });

  it('closes once, however often it is asked', async () => {
    const gateway = await emulate({ as: 'http' });
    await Promise.all([gateway.close(), gateway.close()]);
    await expect(chat(gateway)).rejects.toThrow();
  });

  it('stops intercepting when an msw gateway is closed', async () => {
    const gateway = await emulate({ as: 'msw', baseURL: 'https://closed.test/v1' });
    await gateway.close();
    await expect(chat(gateway)).rejects.toThrow();
  });

  it('resets counters and faults after each test and closes after all, given the hooks', async () => {
    const registered: { each?: () => void; all?: () => Promise<void> } = {};
    const gateway = await emulate({
      as: 'http',
      hooks: { afterEach: (fn) => (registered.each = fn), afterAll: (fn) => (registered.all = fn) },
    });
    gateway.emulator.injectFault({ fault: 'bad_gateway' });
    expect((await chat(gateway)).status).toBe(502);
    registered.each?.();
    expect(gateway.counters.requests.chat).toBe(0);
    expect((await chat(gateway)).status).toBe(200);
    await registered.all?.();
    await expect(chat(gateway)).rejects.toThrow();
  });
});

describe('waits on the emulator state', () => {
  it('untilInflight resolves once the requests are in flight, untilIdle once the slots are back', async () => {
    const gateway = await gatewayAs('fetch', { latencyMs: 60_000 });
    const cut = new AbortController();
    const calls = Array.from({ length: 4 }, () => chat(gateway, { signal: cut.signal }));
    await gateway.untilInflight(4);
    expect(gateway.counters.inflight[gateway.apiKey]).toBe(4);
    cut.abort();
    await Promise.allSettled(calls);
    await gateway.untilIdle({ key: gateway.apiKey });
    expect(gateway.counters.inflight[gateway.apiKey]).toBe(0);
  });

  it.each<EmulateAs>(['fetch', 'http'])(
    'hold keeps answers in flight until released (%s)',
    async (as) => {
      const gateway = await gatewayAs(as);
      const release = gateway.hold();
      let answered = 0;
      const calls = Array.from({ length: 4 }, () => chat(gateway).then(() => (answered += 1)));
      await gateway.untilHeld(4);
      // Held, not answered: the fifth is refused while the four hold the key's slots.
      expect((await chat(gateway)).status).toBe(429);
      expect(answered).toBe(0);
      release();
      await Promise.all(calls);
      await gateway.untilIdle();
      expect(answered).toBe(4);
      // A released hold holds nothing more.
      expect((await chat(gateway)).status).toBe(200);
    },
  );

  it('a held request ends when it is aborted, and reset releases what is held', async () => {
    const gateway = await gatewayAs('http');
    gateway.hold();
    const cut = new AbortController();
    const aborted = chat(gateway, { signal: cut.signal });
    const kept = chat(gateway);
    await gateway.untilHeld(2);
    cut.abort();
    expect((await caught(aborted)).name).toBe('AbortError');
    gateway.reset();
    expect((await kept).status).toBe(200);
    await gateway.untilIdle();
  });

  it.each<EmulateAs>(['fetch', 'http'])(
    "hold with faults keeps an injected fault's answer, holding its slot, until released (%s)",
    async (as) => {
      const gateway = await gatewayAs(as);
      const { emulator } = gateway;
      emulator.injectFault({ fault: 'model_busy', endpoint: 'chat', times: 1, retryAfter: 7 });
      emulator.injectFault({ fault: 'drop_connection', endpoint: 'chat', times: 1 });
      const release = gateway.hold('chat', { faults: true });
      const settled: string[] = [];
      const note = (what: string) => () => settled.push(what);
      const busy = chat(gateway).finally(note('busy'));
      const dropped = caught(chat(gateway).finally(note('dropped')));
      await gateway.untilHeld(2, { key: gateway.apiKey });
      // An answer that is not held, asked after them, comes first: they are still held, in flight.
      const models = await gateway.fetch(`${gateway.baseURL}/models`, {
        headers: { authorization: `Bearer ${gateway.apiKey}` },
      });
      expect(models.status).toBe(200);
      expect(settled).toEqual([]);
      expect(gateway.counters.inflight[gateway.apiKey]).toBe(2);
      release();
      const refused = await busy;
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('7');
      expect((await refused.json()) as unknown).toMatchObject({ error: { code: 'model_busy' } });
      expect((await dropped).name).toBe('TypeError');
      await gateway.untilIdle();
    },
  );

  it("a hold without faults lets an injected fault's answer out at once", async () => {
    const gateway = await gatewayAs('fetch');
    gateway.emulator.injectFault({ fault: 'model_busy', endpoint: 'chat', times: 1 });
    gateway.hold();
    expect((await chat(gateway)).status).toBe(429);
    expect(() => gateway.hold('chat', { fault: true } as never)).toThrow(/fault/);
    await gateway.untilIdle();
  });

  it('untilCancelled resolves when a reader cancels a stream before its end', async () => {
    const gateway = await gatewayAs('http', { streamChunkDelayMs: 60_000 });
    const response = await chat(gateway, { stream: true });
    const reader = response.body!.getReader();
    await reader.read();
    expect(gateway.counters.streamsCancelled).toBe(0);
    await reader.cancel();
    await gateway.untilCancelled();
    await gateway.untilIdle();
    expect(gateway.counters.streamsCancelled).toBe(1);
  });

  it('a stream read to its end is not counted as cancelled', async () => {
    const gateway = await gatewayAs('fetch');
    await (await chat(gateway, { stream: true })).text();
    await gateway.untilIdle();
    expect(gateway.counters.streamsCancelled).toBe(0);
  });

  it('untilRequests counts an endpoint, and until takes any predicate', async () => {
    const gateway = await gatewayAs('msw');
    const waiting = gateway.untilRequests(2);
    let done = false;
    void waiting.then(() => (done = true));
    await chat(gateway);
    expect(done).toBe(false);
    await chat(gateway);
    await waiting;
    await until(gateway.emulator, (counters) => counters.maxInflightTotal >= 1);
  });

  it('fails after its safety net, naming what it waited for and the counters', async () => {
    const gateway = await gatewayAs('fetch');
    const error = await caught(gateway.untilHeld(1, { timeoutMs: 20 }));
    expect(error.message).toMatch(/1 request\(s\) held after 20 ms; counters: \{"requests"/);
  });

  it('rejects with what the predicate threw', async () => {
    const gateway = await gatewayAs('fetch');
    const error = await caught(
      gateway.until(() => {
        throw new Error('bad predicate');
      }),
    );
    expect(error.message).toBe('bad predicate');
  });
});

describe('watchedChatReads', () => {
  /** A streamed chat, its request named by a URL string, a `URL` or a `Request`. */
  const streamed = (
    gateway: EmulatedGateway,
    fetch: typeof globalThis.fetch,
    form: 'string' | 'URL' | 'Request' = 'string',
  ) => {
    const url = `${gateway.baseURL}/chat/completions`;
    const init = {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'community/general',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    };
    if (form === 'Request') return fetch(new Request(url, init));
    return fetch(form === 'URL' ? new URL(url) : url, init);
  };
  const settled = (promise: Promise<void>) =>
    Promise.race([promise.then(() => true), new Promise<false>((r) => setImmediate(r, false))]);

  it('tells when the client reads on past the chunk holding the mark, and passes the body on', async () => {
    const gateway = await gatewayAs('fetch');
    const watched = watchedChatReads(gateway.fetch, '"role":"assistant"');
    const response = await streamed(gateway, watched.fetch);
    expect(await settled(watched.readPast)).toBe(false);
    const text = await response.text();
    expect(text).toContain('data: [DONE]');
    expect(await settled(watched.readPast)).toBe(true);
  });

  it.each(['URL', 'Request'] as const)(
    'watches a chat body sent with a %s input as with a string (rv-emu2 F7)',
    async (form) => {
      const gateway = await gatewayAs('fetch');
      const watched = watchedChatReads(gateway.fetch, 'Echo');
      const response = await streamed(gateway, watched.fetch, form);
      await response.text();
      expect(await settled(watched.readPast)).toBe(true);
    },
  );

  it('never tells for a mark the body does not hold', async () => {
    const gateway = await gatewayAs('fetch');
    const watched = watchedChatReads(gateway.fetch, 'no such text');
    await (await streamed(gateway, watched.fetch)).text();
    expect(await settled(watched.readPast)).toBe(false);
  });
});

describe('steppedClock', () => {
  it('moves performance.now() ahead by the steps given, and restore gives the real clock back', () => {
    const real = performance.now;
    const clock = steppedClock();
    try {
      const before = performance.now();
      clock.ahead(60_000);
      clock.ahead(30_000);
      expect(performance.now() - before).toBeGreaterThanOrEqual(90_000);
    } finally {
      clock.restore();
    }
    expect(performance.now).toBe(real);
    expect(Object.hasOwn(performance, 'now')).toBe(false);
  });
});

describe('budgetSeen', () => {
  it("counts the key's chat requests, the 429s for concurrency and its most in flight at once", async () => {
    const gateway = await gatewayAs('fetch');
    expect(budgetSeen(gateway)).toEqual({ chat: 0, concurrencyRejections: 0, maxInflight: 0 });
    const release = gateway.hold();
    const calls = [chat(gateway), chat(gateway), chat(gateway), chat(gateway), chat(gateway)];
    await gateway.untilHeld(4);
    // The fifth is over the key's 4: refused at once.
    expect((await calls[4])!.status).toBe(429);
    release();
    await Promise.all(calls);
    expect(budgetSeen(gateway)).toEqual({ chat: 5, concurrencyRejections: 1, maxInflight: 4 });
    expect(budgetSeen(gateway, 'another-key').maxInflight).toBe(0);
  });

  it('refuses a gateway without a key of its own when no key is named (rv-redis2 note)', () => {
    // `startEmulator(...).emulator` from plain JS: it would read 0 for every key, and pass.
    const keyless = { counters: createEmulator().counters } as unknown as EmulatedGateway;
    expect(() => budgetSeen(keyless)).toThrow(/name the key/);
  });
});

describe('caught', () => {
  it('returns the rejection of a promise, or what a function throws', async () => {
    expect((await caught(Promise.reject(new RangeError('no')))).name).toBe('RangeError');
    expect((await caught(() => JSON.parse('{'))).name).toBe('SyntaxError');
  });

  it('fails when the call succeeds', async () => {
    await expect(caught(Promise.resolve(42))).rejects.toThrow(
      /expected the call to fail; it gave 42/,
    );
  });

  it('checks and types the error with a guard', async () => {
    const isRange = (error: unknown): error is RangeError => error instanceof RangeError;
    const error = await caught(Promise.reject(new RangeError('far')), isRange);
    expect(error.message).toBe('far');
    await expect(caught(Promise.reject(new TypeError('x')), isRange)).rejects.toThrow(
      /another kind of error: TypeError: x/,
    );
  });
});

describe('startRedis', () => {
  it('starts a redis-server on a free port that freezes, resumes and stops', async () => {
    const redis = await startRedis();
    try {
      expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
      const { createConnection } = await import('node:net');
      /** An inline command's reply, read until `whole` says it has what the test needs. */
      const ask = (command: string, whole = (reply: string) => reply.endsWith('\r\n')) =>
        new Promise<string>((resolve, reject) => {
          const socket = createConnection(redis.port, '127.0.0.1');
          let reply = '';
          socket.on('data', (data) => {
            reply += data.toString();
            if (!whole(reply)) return;
            socket.end();
            resolve(reply);
          });
          socket.once('error', reject);
          socket.write(`${command}\r\n`);
        });
      const ping = () => ask('PING');
      expect(await ping()).toBe('+PONG\r\n');
      // Frozen is a state of the process (stopped: `T` in /proc), not a silence waited for: a
      // stopped process runs nothing, so answers nothing, until it is continued.
      const processId = /process_id:(\d+)\r\n/;
      const pid = processId.exec(await ask('INFO server', (info) => processId.test(info)))?.[1];
      const state = async () => {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      };
      expect(await state()).not.toBe('T');
      redis.freeze();
      await pollUntil(async () => (await state()) === 'T', 'redis-server stopped');
      let answered = false;
      const frozen = ping().then((reply) => {
        answered = true;
        return reply;
      });
      expect(await state()).toBe('T');
      expect(answered).toBe(false);
      redis.resume();
      expect(await frozen).toBe('+PONG\r\n');
      expect(await state()).not.toBe('T');
    } finally {
      await redis.stop();
    }
  });

  it('refuses a port that is taken, with what redis-server printed', async () => {
    const { createServer } = await import('node:net');
    const holder = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => holder.once('listening', resolve));
    const address = holder.address();
    try {
      if (address === null || typeof address === 'string') throw new Error('no port');
      await expect(startRedis(address.port)).rejects.toThrow(
        /redis-server exited with 1: .*Address already in use/,
      );
    } finally {
      holder.close();
    }
  });
});
