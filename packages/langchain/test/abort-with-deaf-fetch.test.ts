// An invoke aborted once its call has left the model's queue waits for that call's own error (its
// route: abort-keeps-route.test.ts) only briefly: a custom fetch deaf to its signal holds core's
// call until it answers, and the abort must not wait for it (rv-28c F1). The wait (100 ms) is
// timed on a driven clock: no test waits on the real one.

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

it('an abort while a fetch deaf to its signal holds the chat rejects with the abort after 100 ms', async () => {
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
  // Core's own error never comes (the fetch holds its call): the abort's, once the wait is over.
  await expect(clock.settledAfter(99, invoked)).rejects.toThrow('still pending');
  const error = await clock.settledAfter(1, invoked);
  expect(error.code).toBe('aborted');
  // The held request was never answered while the call waited.
  expect(gateway.counters.requests.chat ?? 0).toBe(0);
});
