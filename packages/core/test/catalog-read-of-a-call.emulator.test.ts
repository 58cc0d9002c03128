// The catalog read a chat call's gate makes is one request of that call (docs/gateway-protocol.md
// §4.2, §10.5): retried as the call's `maxRetries` says, under the call's one deadline.
import { caught, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ChatRequest, isGatewayError } from '../src/index';
import { withDeadlineStarted } from '../src/internal';
import { clientOn, hi, slowCatalogGateway, timedOutAt } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

type Send = (
  client: ReturnType<typeof clientOn>,
  req: ChatRequest,
  opts: object,
) => Promise<unknown>;

const chat: Send = (client, req, opts) => client.chat(req, opts);
const chatStream: Send = async (client, req, opts) => {
  const stream = await client.chatStream(req, opts);
  for await (const _event of stream) {
    // drained
  }
};

/** A fresh gateway whose catalog (`GET /models`) answers 503, every time. */
async function catalogDown() {
  const gateway = await emulate();
  gateway.emulator.injectFault({ fault: 'service_unavailable', endpoint: 'models' });
  return { gateway, emulator: gateway.emulator };
}

describe("a chat call's catalog read", () => {
  it.each([
    ['chat', chat, {}],
    ['chatStream', chatStream, {}],
    ['chat with fallbackModels', chat, { fallbackModels: ['community/plain'] }],
    ['chatStream with fallbackModels', chatStream, { fallbackModels: ['community/plain'] }],
  ] as const)(
    '%s: GET /models sent 1 + the call’s maxRetries times',
    async (_name, send, steer) => {
      const { gateway, emulator } = await catalogDown();
      for (const [maxRetries, reads] of [
        [0, 1],
        [1, 2],
        [undefined, 3], // the client's maxRetries (2)
      ] as const) {
        emulator.resetCounters();
        const client = clientOn(gateway); // an empty catalog cache
        const opts = maxRetries === undefined ? { ...steer } : { ...steer, maxRetries };
        const error = await caught(() => send(client, hi(), opts), isGatewayError);
        expect(error.status).toBe(503);
        expect(emulator.counters.requests.models).toBe(reads);
        expect(emulator.counters.requests.chat).toBe(0);
      }
    },
  );

  it('the client’s maxRetries: 0 reads once too', async () => {
    const { gateway, emulator } = await catalogDown();
    const client = clientOn(gateway, { maxRetries: 0 });
    await caught(() => client.chat(hi()), isGatewayError);
    expect(emulator.counters.requests.models).toBe(1);
  });

  it.each([
    ['chat', chat],
    ['chatStream', chatStream],
  ] as const)("%s's timeout counts its catalog read: one deadline", async (_name, send) => {
    // The deadline is the subject: fake timers move it (core reads performance.now()).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { client, emulator } = await slowCatalogGateway();
    await timedOutAt(2_000, () => send(client, hi(), { timeoutMs: 2_000 }));
    expect(emulator.counters.requests.models).toBe(1);
    expect(emulator.counters.requests.chat).toBe(1);
    // (Left to end: its fresh deadline would otherwise keep the test's timers busy.)
    await vi.advanceTimersByTimeAsync(20_000);
  });

  it("a caller's abort during the read ends the call as aborted, nothing sent", async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    const release = emulator.holdAnswers('models');
    const client = clientOn(gateway);
    const controller = new AbortController();
    const failed = caught(() => client.chat(hi(), { signal: controller.signal }), isGatewayError);
    await gateway.untilRequests(1, { endpoint: 'models' });
    controller.abort();
    const error = await failed;
    release();
    expect(error.code).toBe('aborted');
    expect(emulator.counters.requests.chat).toBe(0);
  });
});

describe('concurrent calls’ catalog reads: each waits on its own budget’s attempts', () => {
  it.each([
    ['a maxRetries: 0 call’s', 0, undefined],
    ['a default call’s (maxRetries 2)', undefined, 0],
  ] as const)(
    'a call with another budget does not wait on %s read',
    async (_name, firstRetries, secondRetries) => {
      const { gateway, emulator } = await catalogDown();
      // The first GET /models waits at the client's fetch until released: the first call's read
      // is in flight while the second call starts.
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let reached = () => {};
      const firstRead = new Promise<void>((resolve) => {
        reached = resolve;
      });
      let reads = 0;
      const client = clientOn(gateway, {
        fetch: async (input, init) => {
          if (String(input).endsWith('/models') && ++reads === 1) {
            reached();
            await gate;
          }
          return gateway.emulator.fetch(input, init);
        },
      });
      const budget = (n: number | undefined) => (n === undefined ? {} : { maxRetries: n });
      const first = caught(() => client.chat(hi(), budget(firstRetries)), isGatewayError);
      await firstRead;
      const second = caught(() => client.chat(hi(), budget(secondRetries)), isGatewayError);
      // The second call reads on its own, with its own budget: 1 + its maxRetries requests.
      const own = 1 + (secondRetries ?? 2);
      await gateway.untilRequests(own, { endpoint: 'models', timeoutMs: 5_000 });
      expect((await second).status).toBe(503);
      expect(emulator.counters.requests.models).toBe(own);
      release();
      expect((await first).status).toBe(503);
      expect(emulator.counters.requests.models).toBe(own + 1 + (firstRetries ?? 2));
      expect(emulator.counters.requests.chat).toBe(0);
    },
  );
});

describe('concurrent catalog reads: shared only among calls with the same headers', () => {
  it('a call with other headers sends its own read, with its own headers', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    const release = emulator.holdAnswers('models');
    // The tenant header of each GET /models that reached the gateway.
    const tenants: (string | null)[] = [];
    const client = clientOn(gateway, {
      fetch: (input, init) => {
        tenants.push(new Headers(init?.headers).get('x-tenant'));
        return gateway.emulator.fetch(input, init);
      },
    });
    const first = client.models({ headers: { 'x-tenant': 'a' } });
    await gateway.untilRequests(1, { endpoint: 'models' });
    // The same headers, as fetch sends them (another case, given as pairs): shares the read.
    const same = client.models({ headers: [['X-Tenant', 'a']] });
    const other = client.models({ headers: { 'x-tenant': 'b' } });
    await gateway.untilRequests(2, { endpoint: 'models', timeoutMs: 5_000 });
    release();
    await Promise.all([first, same, other]);
    expect(tenants).toEqual(['a', 'b']);
    expect(emulator.counters.requests.models).toBe(2);
  });
});

describe('a deadline started before the call (withDeadlineStarted)', () => {
  it('a look-up and a chat given it end together; the timeout names its whole length', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { client, emulator } = await slowCatalogGateway();
    const started = withDeadlineStarted({ timeoutMs: 2_000 });
    await timedOutAt(2_000, async () => {
      await client.resolveModel('community/general', started);
      await client.chat(hi(), started);
    });
    expect(emulator.counters.requests.models).toBe(1);
    expect(emulator.counters.requests.chat).toBe(1);
    await vi.advanceTimersByTimeAsync(20_000);
  });

  it('a chat whose started deadline has passed sends nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const gateway = await emulate();
    const client = clientOn(gateway);
    const started = withDeadlineStarted({ timeoutMs: 500, capabilities: ['chat'] });
    await vi.advanceTimersByTimeAsync(500);
    const error = await caught(() => client.chat(hi(), started), isGatewayError);
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('within its deadline of 500 ms');
    expect(gateway.emulator.counters.requests.chat).toBe(0);
  });
});
