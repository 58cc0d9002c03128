// A stream cancelled after its headers came but before its first event (core's stream not yet
// open): the request is aborted at once, the key's slot freed, and no fallback model is asked.
// (ai's single-consumer stream hands a cancel to the model's stream; `streamText`'s replay keeps
// a branch of it for its result promises.)
import { createGatewayClient, createInProcessBudget } from '@infergate/core';
import { DEFAULT_KEYS } from '@infergate/emulator';
import * as ai from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulated, emulator, gateway } = await providersOnMsw();
const key = DEFAULT_KEYS.full;

/** A provider on its own budget (and a client reading it), with a promise of the chat headers. */
function watchedProvider() {
  const budget = createInProcessBudget();
  let headersIn = () => {};
  const headers = new Promise<void>((resolve) => {
    headersIn = resolve;
  });
  const provider = gateway({
    budget,
    circuitBreaker: false,
    fetch: async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (new Request(input, init).url.endsWith('/chat/completions')) headersIn();
      return response;
    },
  });
  const slots = createGatewayClient({ ...emulated.connection, budget }).budget;
  return { provider, headers, slots };
}

describe('experimental_streamTextLowMemory cancelled before its first event', () => {
  it('aborts the request, frees the slot and asks no fallback model', async () => {
    // Headers, then keep-alive comments (no event) for longer than any test.
    emulator.injectFault({
      fault: 'keepalive_first_chunk',
      model: 'community/general',
      ms: 60_000,
      intervalMs: 20,
    });
    const { provider, headers, slots } = watchedProvider();
    const result = ai.experimental_streamTextLowMemory({
      model: provider('community/general', { fallbackModels: ['community/streamer'] }),
      prompt: 'hello there',
      maxRetries: 0,
    });
    const reader = result.textStream.getReader();
    const first = reader.read().catch(() => undefined);
    await emulated.untilRequests(1, { endpoint: 'chat' });
    await headers;
    await reader.cancel('the user left');
    await first;
    // The request at the emulator ended, the client's slot is back, and no other model was asked.
    await emulated.untilIdle({ key });
    await slots.whenIdle();
    expect(emulated.counters.streamsCancelled).toBe(1);
    expect(emulated.counters.requests.chat).toBe(1);
  });
});
