// An invoke aborted once its call has left the model's queue rejects with that call's own error
// (its route: abort-keeps-route.test.ts). A custom fetch deaf to its signal used to hold core's call
// until it answered, so the adapter waits for core's error only briefly (100 ms, rv-28c F1); core
// now stops waiting for such a fetch at the abort itself, so the error comes at once. The clock is
// driven: no test waits on the real one, and the error must come before it moves.

import { createGatewayClient, isGatewayError } from '@infergate/core';
import { caught, drivenClock, emulate } from '@infergate/emulator/testing';
import { afterEach, expect, it, vi } from 'vitest';
import { GatewayChatModel } from '../src/index';

const clock = drivenClock(vi);
let answer: (() => void) | undefined;
afterEach(() => {
  vi.useRealTimers();
  answer?.();
});

it("an abort while a fetch deaf to its signal holds the chat rejects at once with core's abort", async () => {
  const gateway = await emulate();
  const held = new Promise<void>((resolve) => {
    answer = resolve;
  });
  let sending!: () => void;
  const sent = new Promise<void>((resolve) => {
    sending = resolve;
  });
  const client = createGatewayClient({
    ...gateway.connection,
    // The chat request waits for the test, whatever its signal says (the catalog read does not).
    fetch: async (input, init) => {
      if (String(input).endsWith('/chat/completions')) {
        sending();
        await held;
      }
      return gateway.fetch(input, init);
    },
  });
  const model = new GatewayChatModel('community/general', { client });
  const controller = new AbortController();
  const invoked = caught(model.invoke('hi', { signal: controller.signal }), isGatewayError);
  await sent;
  clock.drive();
  controller.abort();
  // Core's own error, before the 100 ms wait for it could end.
  const error = await clock.settledAfter(0, invoked);
  expect(error.code).toBe('aborted');
  // The held request was never answered while the call waited.
  expect(gateway.counters.requests.chat ?? 0).toBe(0);
});
