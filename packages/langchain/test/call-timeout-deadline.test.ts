import { isGatewayError } from '@infergate/core';
import { caught, drivenClock, emulate } from '@infergate/emulator/testing';
import { describe, expect, it, vi } from 'vitest';
import { GatewayChatModel } from '../src/index';

const clock = drivenClock(vi);

describe("a call's timeout is core's deadline too, not only LangChain's signal", () => {
  it.each([
    ['the call option { timeout: 5000 }', {}, { timeout: 5000 }],
    ["the model's timeout: 5000", { timeout: 5000 }, {}],
  ] as const)(
    'with %s, a 429 whose Retry-After (30 s) cannot fit fails at once with model_busy',
    async (_name, fields, call) => {
      const { emulator, connection } = await emulate();
      // The catalog is read first, in real time: the call then sends only its chat.
      const model = new GatewayChatModel('community/general', { ...connection, ...fields });
      await model.invoke('warm up');
      emulator.injectFault({ fault: 'model_busy', endpoint: 'chat', retryAfter: 30 });
      // Core's waits are timers: faked, a wait for the Retry-After never ends in this test.
      // (LangChain's own timeout signal is AbortSignal.timeout, real: 5 s, longer than the test.)
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      try {
        const failed = caught(model.invoke('hi', call));
        const error = await clock.settledAfter(1000, failed);
        expect(isGatewayError(error) && error.code).toBe('model_busy');
        expect(error).toMatchObject({ status: 429, retryAfterMs: 30_000 });
        expect(emulator.counters.requests.chat).toBe(2);
      } finally {
        vi.useRealTimers();
      }
    },
  );
});
