import { createGatewayClient, isGatewayError } from '@infergate/core';
import type { Emulator } from '@infergate/emulator';
import { caught, drivenClock, emulate } from '@infergate/emulator/testing';
import { describe, expect, it, vi } from 'vitest';
import { GatewayChatModel } from '../src/index';

const clock = drivenClock(vi);

/** The calls the deadline tests make: each fails the same way under one deadline. */
const SENDS = [
  ['invoke', (model: GatewayChatModel) => model.invoke('hi')],
  [
    'stream',
    async (model: GatewayChatModel) => {
      for await (const _chunk of await model.stream('hi')) {
        // read to the end
      }
    },
  ],
  // (A call over a fallback list: core's steered walk, under the same one deadline.)
  [
    'invoke with fallbackModels',
    (model: GatewayChatModel) => model.invoke('hi', { fallbackModels: ['community/plain'] }),
  ],
] as const;

/**
 * With the catalog read and the chat each answering after 700 ms, `send` on the model `made` (with
 * a 1000 ms deadline) fails with `timeout` at 1000 ms, after one read and one chat. Fake timers
 * move the deadline (core reads performance.now(); the emulator's delays are timers).
 */
async function expectOneDeadline(
  emulator: Emulator,
  send: (model: GatewayChatModel) => Promise<unknown>,
  made: () => GatewayChatModel,
): Promise<void> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  try {
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'models', ms: 700 });
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'chat', ms: 700 });
    const failed = caught(send(made()));
    const error = await clock.settledAfter(1000, failed);
    expect(isGatewayError(error) && error.code).toBe('timeout');
    // The error names the deadline the user gave, not what the catalog read left of it.
    expect((error as Error).message).toContain('within its deadline of 1000 ms');
    expect(emulator.counters.requests.models).toBe(1);
    expect(emulator.counters.requests.chat).toBe(1);
    // (Left to end: the chat's answer would otherwise keep the test's timers busy.)
    await vi.advanceTimersByTimeAsync(700);
  } finally {
    vi.useRealTimers();
  }
}

describe('GatewayChatModel: one retry layer, with LangChain knobs', () => {
  it("retries by the model's maxRetries, and a call's maxRetries overrides it", async () => {
    const { emulator, connection } = await emulate();
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', retryAfter: 0, times: 100 });
    const model = new GatewayChatModel('community/general', { ...connection, maxRetries: 1 });
    const error = await caught(model.invoke('hi'));
    expect(isGatewayError(error) && error.status).toBe(429);
    expect(emulator.counters.requests.chat).toBe(2);

    await caught(model.invoke('hi', { maxRetries: 0 }));
    expect(emulator.counters.requests.chat).toBe(3);

    await caught(model.invoke('hi', { maxRetries: 3 }));
    expect(emulator.counters.requests.chat).toBe(7);
  });

  it("takes the model's maxRetries and timeout also with a shared client", async () => {
    const { emulator, connection } = await emulate();
    const client = createGatewayClient(connection);
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat', times: 100 });
    const model = new GatewayChatModel('community/general', { client, maxRetries: 0 });
    await caught(model.invoke('hi'));
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('succeeds after one transient 500-class answer (one layer, no double count)', async () => {
    const { emulator, connection } = await emulate();
    emulator.injectFault({ fault: 'service_unavailable', endpoint: 'chat', times: 1 });
    const model = new GatewayChatModel('community/general', connection);
    const answer = await model.invoke('hi');
    expect(answer.text).toBe('Echo: hi');
    expect(emulator.counters.requests.chat).toBe(2);
  });
});

describe('GatewayChatModel: timeout is a deadline, not an abort', () => {
  it("a call's timeout fails invoke with GatewayError code timeout (stream: a timeout either way)", async () => {
    const { emulator, connection } = await emulate();
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'chat', ms: 5000, times: 2 });
    const model = new GatewayChatModel('community/general', connection);
    const invoked = await caught(model.invoke('hi', { timeout: 50 }));
    expect(isGatewayError(invoked) && invoked.code).toBe('timeout');
    const streamed = await caught(
      (async () => {
        for await (const _ of await model.stream('hi', { timeout: 50 })) {
          // consume
        }
      })(),
    );
    // `.stream()` races its iterator with the call's signal in LangChain itself (AbortSignal.timeout's
    // TimeoutError), and the same timeout is core's deadline (its `timeout`): one deadline, two
    // timers, and whichever fires first names it.
    const timedOut =
      (streamed as Error).name === 'TimeoutError' ||
      (isGatewayError(streamed) && streamed.code === 'timeout');
    expect(timedOut, String(streamed)).toBe(true);
  });

  it("the model's timeout field is the call's deadline", async () => {
    const { emulator, connection } = await emulate();
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'chat', ms: 5000 });
    const model = new GatewayChatModel('community/general', {
      ...connection,
      timeout: 50,
      maxRetries: 0,
    });
    const error = await caught(model.invoke('hi'));
    expect(isGatewayError(error) && error.code).toBe('timeout');
  });

  it.each(SENDS.slice(0, 2))(
    "%s: the model's timeout is one deadline, its catalog read included",
    async (_name, send) => {
      // The catalog and the model each answer after 700 ms: with timeout 1000 the call ends at
      // 1000 ms, not when the chat's own 1000 ms would.
      const { emulator, connection } = await emulate();
      const made = () =>
        new GatewayChatModel('community/general', { ...connection, timeout: 1000, maxRetries: 0 });
      await expectOneDeadline(emulator, send, made);
    },
  );

  it.each(SENDS)(
    "%s: with no timeout given, the client's default is one deadline over the read and the chat",
    async (_name, send) => {
      // The client's timeoutMs (1000) applies once: a 700 ms read and a 700 ms chat end at 1000 ms,
      // not at 1700 ms (the default applied to each core call apart).
      const { emulator, connection } = await emulate();
      // (Core's steering module is loaded by the first steered call, in real time: loaded first.)
      await send(new GatewayChatModel('community/general', connection));
      emulator.resetCounters();
      await expectOneDeadline(emulator, send, () => {
        const client = createGatewayClient({ ...connection, timeoutMs: 1000, maxRetries: 0 });
        return new GatewayChatModel('community/general', { client });
      });
    },
  );

  it("the model's timeout holds when the wall clock is stepped back (a monotonic deadline)", async () => {
    // Only `Date` is faked: an NTP step; timers and performance.now() keep their pace.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const gateway = await emulate();
      // Held, not slow: only the deadline can end the call, however loaded the machine.
      gateway.hold();
      const model = new GatewayChatModel('community/general', {
        ...gateway.connection,
        timeout: 500,
        maxRetries: 0,
        // No catalog read: the deadline runs while the chat request is held (a catalog read first
        // could take the whole 500 ms on a loaded machine).
        capabilities: ['chat'],
      });
      const pending = caught(model.invoke('hi'));
      // (Should the call end before its request is held, the test says so at once.)
      const endedFirst = pending.then((e) => {
        throw new Error(`the call ended before its request was held: ${String(e)}`);
      });
      await Promise.race([gateway.untilHeld(1), endedFirst]);
      endedFirst.catch(() => {});
      vi.setSystemTime(Date.now() - 60_000);
      // The deadline fired on time, not 60 s late.
      const error = await pending;
      expect(isGatewayError(error) && error.code).toBe('timeout');
    } finally {
      vi.useRealTimers();
    }
  });

  it("a signal that ended before the call: core's error, worded as core words it, nothing sent", async () => {
    const { emulator, connection } = await emulate();
    const model = new GatewayChatModel('community/general', connection);
    const late = AbortSignal.abort(new DOMException('late', 'TimeoutError'));
    const timedOut = await caught(model.invoke('hi', { signal: late }));
    const client = createGatewayClient({ ...connection, maxRetries: 0 });
    const fromCore = await caught(
      client.chat(
        { model: 'community/general', messages: [{ role: 'user', content: 'hi' }] },
        { signal: late },
      ),
    );
    expect(timedOut).toMatchObject({ code: 'timeout', message: (fromCore as Error).message });
    const controller = new AbortController();
    controller.abort();
    const aborted = await caught(model.invoke('hi', { signal: controller.signal }));
    expect(aborted).toMatchObject({ code: 'aborted', message: 'The call was aborted' });
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('an abort stays an abort', async () => {
    const gateway = await emulate();
    // The answer is held (not slow): the abort comes once the request is in flight.
    gateway.hold();
    const model = new GatewayChatModel('community/general', gateway.connection);
    const controller = new AbortController();
    const pending = caught(model.invoke('hi', { signal: controller.signal }));
    await gateway.untilHeld(1);
    controller.abort();
    const error = await pending;
    expect(isGatewayError(error) ? error.code : (error as Error).name).toMatch(
      /aborted|AbortError/,
    );
  });
});
