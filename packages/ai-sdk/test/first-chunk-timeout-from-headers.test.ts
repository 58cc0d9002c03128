// ai's `timeout.firstChunkMs` starts when `doStream` returns: the stream is handed on once the
// answer's headers are in (as @ai-sdk/openai-compatible hands its on), its first event read inside
// the stream — so ai's limit bounds a silent or keep-alive-only first chunk. What is known before
// the headers is still thrown from doStream (ai retries a 429 as it always did); our own
// firstChunkTimeoutMs still fails over inside the stream, and the result names the answering
// model's response.

import { DEFAULT_KEYS } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import * as ai7 from 'ai';
import * as ai6 from 'ai-v6';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { GatewayChatModelSettings } from '../src';
import { providersOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway, gatewayV3 } = providersOn(emulated);
const requestsClosed = () => emulated.untilIdle({ key: DEFAULT_KEYS.full });

/** A streamText of `entry` read to its end: its parts' types and the error `onError` saw. */
async function streamed(
  entry: 'ai7' | 'ai6',
  settings: GatewayChatModelSettings,
  extra: { timeout?: { firstChunkMs: number }; maxRetries?: number } = {},
) {
  let error: unknown;
  const call = {
    prompt: 'hello there',
    maxRetries: extra.maxRetries ?? 0,
    include: { requestBody: true },
    onError: (event: { error: unknown }) => {
      error = event.error;
    },
  };
  const result =
    entry === 'ai7'
      ? ai7.streamText({
          ...call,
          model: gateway({ fetch: emulated.fetch })('community/general', settings),
          ...(extra.timeout && { timeout: extra.timeout }),
        })
      : (ai6.streamText({
          ...call,
          model: gatewayV3({ fetch: emulated.fetch })('community/general', settings),
        }) as unknown as ReturnType<typeof ai7.streamText>);
  const types: string[] = [];
  for await (const part of result.fullStream) types.push(part.type);
  return { result, types, error };
}

describe("ai@7's timeout.firstChunkMs", () => {
  it.each(['stall_first_chunk', 'keepalive_first_chunk'] as const)(
    'aborts the call before any content when the first chunk is late (%s)',
    async (fault) => {
      // The answer's headers come at once; its first event not within the test.
      emulator.injectFault({ fault, model: 'community/general', ms: 60_000 });
      const { types, error } = await streamed('ai7', {}, { timeout: { firstChunkMs: 50 } });
      expect(types).toContain('abort');
      expect(types).not.toContain('text-delta');
      expect(types).not.toContain('error');
      expect(error).toBeUndefined();
      // The held request was given up (its slot freed), not read on for a minute.
      await requestsClosed();
      expect(emulator.counters.requests.chat).toBe(1);
    },
  );
});

describe.each(['ai7', 'ai6'] as const)('%s: what is known before the headers', (entry) => {
  it("a 429 is still thrown from doStream: ai's maxRetries retries it", async () => {
    emulator.injectFault({
      fault: 'rate_limit',
      model: 'community/general',
      retryAfter: 0,
      times: 2,
    });
    const { result, types } = await streamed(entry, {}, { maxRetries: 2 });
    expect(types).not.toContain('error');
    expect(await result.text).toBe('Echo: hello there');
    // Two refused, the third answered: ai's retries, none of ours.
    expect(emulator.counters.requests.chat).toBe(3);
  });

  it('with no retries left, the 429 is the call’s error', async () => {
    emulator.injectFault({ fault: 'rate_limit', model: 'community/general', retryAfter: 0 });
    const { types, error } = await streamed(entry, {});
    expect(types).toContain('error');
    expect(ai7.APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 429, isRetryable: true });
    expect(emulator.counters.requests.chat).toBe(1);
  });
});

describe.each(['ai7', 'ai6'] as const)('%s: our firstChunkTimeoutMs after the headers', (entry) => {
  it('fails over inside the stream; the result names the answering model and its headers', async () => {
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/general', ms: 60_000 });
    const settings = { fallbackModels: ['community/streamer'], firstChunkTimeoutMs: 50 };
    const { result, types, error } = await streamed(entry, settings);
    expect(error).toBeUndefined();
    expect(types).not.toContain('abort');
    expect(await result.text).toBe('Echo: hello there');
    const response = await result.response;
    expect(response.modelId).toBe('community/streamer');
    // The answering response's headers, not the stalled first model's.
    expect(response.headers?.['x-service-model']).toBe('community/streamer');
    expect((await result.request).body).toMatchObject({ model: 'community/streamer' });
    const metadata = (await result.providerMetadata)?.infergate;
    expect(metadata).toMatchObject({ servedModel: 'community/streamer', fallback: true });
    expect(emulator.counters.requests.chat).toBe(2);
    await requestsClosed();
  });

  it('bounds a keep-alive-only first chunk, failing over', async () => {
    emulator.injectFault({
      fault: 'keepalive_first_chunk',
      model: 'community/general',
      ms: 60_000,
    });
    const settings = { fallbackModels: ['community/streamer'], firstChunkTimeoutMs: 50 };
    const { result, error } = await streamed(entry, settings);
    expect(error).toBeUndefined();
    expect(await result.text).toBe('Echo: hello there');
    expect((await result.response).headers?.['x-service-model']).toBe('community/streamer');
    await requestsClosed();
  });

  it('with no model left, the stall is the stream’s error part (after the headers)', async () => {
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/general', ms: 60_000 });
    const { types, error } = await streamed(entry, { firstChunkTimeoutMs: 50 });
    expect(types).toContain('error');
    expect(types).not.toContain('text-delta');
    expect(error).toMatchObject({ data: { code: 'timeout', stall: { phase: 'first-chunk' } } });
    await requestsClosed();
  });
});

describe("ai@7's streamRetries", () => {
  it('retries a stall after the headers, reported as the stream’s error part', async () => {
    emulator.injectFault({
      fault: 'stall_first_chunk',
      model: 'community/general',
      ms: 60_000,
      times: 1,
    });
    const result = ai7.streamText({
      model: gateway({ fetch: emulated.fetch })('community/general', { firstChunkTimeoutMs: 50 }),
      prompt: 'hello there',
      maxRetries: 0,
      streamRetries: 1,
      onError: () => {},
    });
    expect(await result.text).toBe('Echo: hello there');
    expect(emulator.counters.requests.chat).toBe(2);
    await requestsClosed();
  });
});
