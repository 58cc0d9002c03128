// A custom fetch that does not listen to its signal (a wrapper, a mock, a polyfill): the call's
// deadline and its caller's abort end the call at once, not when that fetch gives up. Its request
// may still be at the gateway, which counts it: the key's slot is kept until the fetch settles
// (a bound at most: one that never settles must not wedge the client), the client's own slot comes
// back at once, and a Response it brings late has its body cancelled. The first chat request goes to
// such a fetch, which answers only when the test says; everything else goes to the emulator.
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ABANDONED_FETCH_HOLD, CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import { caught, clientOn, deferred, driveClock, hi, settledAfter } from './helpers';

/** The first chat request held by a fetch deaf to its signal; `letGo` answers it late. */
function deafFirstChat(gateway: EmulatedGateway) {
  const { promise: sent, resolve: wasSent } = deferred();
  const { promise: late, resolve: letGo } = deferred<Response>();
  const body = { cancelled: false };
  let chats = 0;
  const fetch: typeof globalThis.fetch = (input, init) => {
    if (!String(input).endsWith('/chat/completions') || ++chats > 1) {
      return gateway.connection.fetch(input, init);
    }
    wasSent();
    // (`init.signal` is never looked at.)
    return late;
  };
  /** A late 200 whose body records its cancel (no bytes: only a cancel ends it). */
  const lateAnswer = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        cancel() {
          body.cancelled = true;
        },
      }),
      { headers: { 'content-type': 'application/json' } },
    );
  return { fetch, sent, letGo: () => letGo(lateAnswer()), body };
}

/**
 * A client (its `options`) on a driven clock whose first chat, held by a deaf fetch, its caller
 * aborted: the call has ended with `aborted`; the fetch has not answered (`letGo`).
 */
async function abortedWhileDeaf(options: Parameters<typeof clientOn>[1]) {
  const gateway = await emulate();
  const { fetch, sent, letGo, body } = deafFirstChat(gateway);
  const client = clientOn(gateway, { fetch, ...options });
  driveClock();
  const controller = new AbortController();
  const first = caught(() => client.chat(hi(), { signal: controller.signal }));
  await sent;
  controller.abort();
  expect((await first).code).toBe('aborted');
  return { client, emulator: gateway.emulator, letGo, body };
}

beforeAll(async () => {
  // (Core's modules loaded on real timers, before a test fakes them.)
  const gateway = await emulate();
  const client = clientOn(gateway);
  await client.chat(hi());
  await (await client.chatStream(hi())).result();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a custom fetch deaf to the abort signal', () => {
  it('timeoutMs ends the call at its deadline with the timeout error', async () => {
    const gateway = await emulate();
    const { fetch } = deafFirstChat(gateway);
    const client = clientOn(gateway, { fetch, maxRetries: 0 });
    driveClock();
    const call = caught(() => client.chat(hi(), { timeoutMs: 2_000 }));
    const error = await settledAfter(2_000, call);
    expect(error.code).toBe('timeout');
  });

  it("the caller's abort ends the call at once with the aborted error", async () => {
    const gateway = await emulate();
    const { fetch, sent } = deafFirstChat(gateway);
    const client = clientOn(gateway, { fetch });
    const controller = new AbortController();
    const call = caught(() => client.chat(hi(), { signal: controller.signal }));
    await sent;
    controller.abort(new Error('stop'));
    expect((await call).code).toBe('aborted');
  });

  it('a stream call (chatStream): its abort ends it at once too', async () => {
    const gateway = await emulate();
    const { fetch, sent, letGo, body } = deafFirstChat(gateway);
    const client = clientOn(gateway, { fetch });
    const controller = new AbortController();
    const call = caught(() => client.chatStream(hi(), { signal: controller.signal }));
    await sent;
    controller.abort();
    expect((await call).code).toBe('aborted');
    // The slot is kept while the fetch may still be sending; then given back, its body cancelled.
    expect(client.budget.active).toBe(1);
    letGo();
    await client.budget.whenIdle();
    expect(body.cancelled).toBe(true);
  });

  it("the key's slot stays taken until the deaf fetch settles; the client's own comes back at once", async () => {
    // One slot of its own, two of the key's: the next call needs the first's own slot back.
    const { client, emulator, letGo, body } = await abortedWhileDeaf({
      maxConcurrency: 1,
      maxConcurrencyPerKey: 2,
    });
    const second = await settledAfter(0, client.chat(hi('community/general', 'next')));
    expect(second.answer.text).toBe('Echo: next');
    // Long past a cut request's grace: the deaf request may still be at the gateway.
    await vi.advanceTimersByTimeAsync(CUT_REQUEST_GRACE_MS * 5);
    expect(client.budget.active).toBe(1);
    expect(body.cancelled).toBe(false);
    // The deaf fetch answers at last: its body is cancelled, the key's slot given back.
    letGo();
    await settledAfter(CUT_REQUEST_GRACE_MS + 10, client.budget.whenIdle());
    expect(client.budget.active).toBe(0);
    expect(body.cancelled).toBe(true);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it("a deaf fetch that never settles holds the key's slot a bound at most: then the next call is sent", async () => {
    const { client, emulator } = await abortedWhileDeaf({ maxConcurrencyPerKey: 1 });
    const second = client.chat(hi('community/general', 'next'));
    await vi.advanceTimersByTimeAsync(ABANDONED_FETCH_HOLD.ms - 1);
    expect(client.budget.queued).toBe(1);
    expect(emulator.counters.requests.chat ?? 0).toBe(0);
    // The bound passed (then a cut request's grace): the key's slot goes to the next call.
    const result = await settledAfter(CUT_REQUEST_GRACE_MS + 10, second);
    expect(result.answer.text).toBe('Echo: next');
    expect(emulator.counters.requests.chat).toBe(1);
  });
});
