// A structured stream whose text core holds back (JSON in prose, docs/gateway-protocol.md §4.8
// item 5), through ai's streamText with `Output.object`, against the emulator: nothing of it has
// reached the caller while it is held, so a model that goes silent (`chunkTimeoutMs`) or whose
// stream ends short there is no answer, and core moves on to the next listed model (§4.7).

import type { ModelSpec } from '@infergate/emulator';
import { drivenClock, emulate, watchedChatReads } from '@infergate/emulator/testing';
import { Output, streamText } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';
import { createGateway } from '../src';

const listed = { owned_by: 'service-community', online: true } as const;
const models: Record<string, ModelSpec> = {
  'community/so-prose': {
    ...listed,
    capabilities: ['chat', 'streaming', 'json_schema'],
    jsonAnswers: { wrap: 'prose' },
  },
  'community/so-native': { ...listed, capabilities: ['chat', 'streaming', 'json_schema'] },
};
const held = 'community/so-prose';
const emulated = await emulate({ scenario: { models }, hooks: { afterEach, afterAll } });
const Place = z.object({ city: z.string() });
const CHUNK_MS = 300;

/** streamText of the held model with `Output.object`, falling back to so-native. */
function streamPlace(fetch: typeof globalThis.fetch = emulated.fetch) {
  const gateway = createGateway({ baseURL: emulated.baseURL, apiKey: emulated.apiKey, fetch });
  const errors: unknown[] = [];
  const stream = streamText({
    model: gateway(held, { fallbackModels: ['community/so-native'], chunkTimeoutMs: CHUNK_MS }),
    prompt: 'Where is "Oslo"?',
    output: Output.object({ schema: Place }),
    onError: ({ error }) => {
      errors.push(error);
    },
  });
  return { stream, errors };
}

// A first structured stream on real timers: core's steering loaded before a test fakes them.
const driveClock = drivenClock(vi).drive;
beforeAll(async () => {
  await streamPlace().stream.consumeStream();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('streamText + Output.object on a held structured stream', () => {
  it('a model silent while its text is held stalls after chunkTimeoutMs; the next model answers', async () => {
    // The role and two words of prose ("Here ", "is "), then nothing for longer than any test.
    emulated.emulator.injectFault({
      fault: 'stall_stream',
      model: held,
      afterChunks: 3,
      ms: 60_000,
    });
    const watched = watchedChatReads(emulated.fetch, '"content":"is "');
    const sent = emulated.emulator.counters.requests.chat ?? 0;
    driveClock();
    const { stream, errors } = streamPlace(watched.fetch);
    const done = stream.consumeStream();
    // The held read waits on the model: from now on, only the clock moves it.
    await watched.readPast;
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(CHUNK_MS);
    vi.useRealTimers();
    await done;
    expect(errors).toEqual([]);
    expect(await stream.output).toEqual({ city: 'Oslo' });
    expect((await stream.response).modelId).toBe('community/so-native');
    // One request to each model: the stalled one is not retried.
    expect(emulated.emulator.counters.requests.chat).toBe(sent + 2);
  });

  it('a stream that ends without a finish_reason while held moves on to the next model', async () => {
    emulated.emulator.injectFault({ fault: 'no_finish', model: held });
    const { stream, errors } = streamPlace();
    await stream.consumeStream();
    expect(errors).toEqual([]);
    expect(await stream.output).toEqual({ city: 'Oslo' });
    expect((await stream.response).modelId).toBe('community/so-native');
  });
});
