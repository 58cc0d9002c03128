// The catalog look-ups a chat call makes for its capability gate (§4.2: whether `.stream()` streams,
// each listed model's capabilities over a fallback list, `profile` after the call) are requests
// of that call: its signal and deadline end them, and they are given only the options a look-up
// reads (signal, deadline, retries), never the chat's headers, steering or capabilities.
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';

/** Reads a `.stream()` to its end. */
async function readAll(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of stream) {
    // read to the end
  }
}

describe("a chat call's catalog look-ups", () => {
  it.each([
    // LangChain's gate reads the catalog before the chat: whether `.stream()` streams.
    [
      '.stream() (the gate’s read before the chat)',
      async (model: GatewayChatModel, signal: AbortSignal) =>
        readAll(await model.stream('hi', { signal })),
    ],
    // Core's gate reads it inside the chat call.
    [
      'invoke (core’s gate’s read)',
      (model: GatewayChatModel, signal: AbortSignal) => model.invoke('hi', { signal }),
    ],
  ] as const)(
    '%s: an abort while GET /models is held ends the call, no chat sent',
    async (_name, send) => {
      const gateway = await emulate();
      gateway.hold('models');
      const model = new GatewayChatModel('community/general', gateway.connection);
      const stop = new AbortController();
      const pending = caught(send(model, stop.signal));
      await gateway.untilHeld(1);
      stop.abort();
      const error = await pending;
      // (`.stream()` may reject with the signal's own AbortError: LangChain races its iterator.)
      const aborted =
        (isGatewayError(error) && error.code === 'aborted') ||
        (error as Error).name === 'AbortError';
      expect(aborted, String(error)).toBe(true);
      expect(gateway.counters.requests.models).toBe(1);
      expect(gateway.counters.requests.chat).toBe(0);
      // The held read was aborted: its slot is back.
      await gateway.untilIdle();
    },
  );

  // Each of a chat call's own keys given, so that a look-up given them would be handed keys it
  // does not read (core refuses a key a call does not read, naming whose it is).
  const chatKeys = {
    headers: { 'x-team': 'docs' },
    fallbackModels: ['community/plain'],
    firstChunkTimeoutMs: 60_000,
    chunkTimeoutMs: 60_000,
    hedge: false,
  } as const;

  it('.stream() over a fallback list: the gate’s reads (the model’s, then every listed model’s) take the call’s steering keys', async () => {
    const gateway = await emulate();
    const model = new GatewayChatModel('community/general', gateway.connection);
    await readAll(await model.stream('hi', chatKeys));
    expect(gateway.counters.requests.chat).toBe(1);
    // `profile` was learnt: the gate's look-ups answered.
    expect(model.profile.toolCalling).toBe(true);
  });

  it('invoke: `profile` is learnt after a call with every chat key (its look-up answers)', async () => {
    const gateway = await emulate();
    const model = new GatewayChatModel('community/general', gateway.connection);
    expect(model.profile.toolCalling).toBeUndefined();
    expect((await model.invoke('hi', chatKeys)).text).toBe('Echo: hi');
    // (A look-up refused for its options would leave `profile` unknown, never failing the call.)
    expect(model.profile.toolCalling).toBe(true);
  });
});
