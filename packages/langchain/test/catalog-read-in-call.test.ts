import { createGatewayClient, type GatewayEvent } from '@infergate/core';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';

/** The `start` events by operation, each with the call it was made for. */
function starts(events: readonly GatewayEvent[]) {
  return events.flatMap((event) =>
    event.type === 'start'
      ? [{ operation: event.operation, callId: event.callId, parent: event.parentCallId }]
      : [],
  );
}

// Core's call reads the catalog its gate needs as one of its requests (its events name the chat
// call as parent, so OpenTelemetry nests its span under the call's): the chat model leaves that
// read to core, as `client.chat` does, and learns `profile` from the catalog core read.
describe('GatewayChatModel: the catalog read is a request of the chat call', () => {
  it.each([
    ['invoke', {}],
    ['invoke with streaming: true', { streaming: true }],
  ])('%s: GET /models is the chat call’s child, not a call of its own', async (_, fields) => {
    const { connection } = await emulate();
    const events: GatewayEvent[] = [];
    const model = new GatewayChatModel('community/general', {
      ...connection,
      ...fields,
      onEvent: (event) => events.push(event),
    });
    expect(model.profile.toolCalling).toBeUndefined();
    await model.invoke('hi');
    const chat = starts(events).find((start) => start.operation === 'chat');
    expect(starts(events).filter((start) => start.operation === 'models')).toEqual([
      { operation: 'models', callId: expect.any(Number), parent: chat?.callId },
    ]);
    // The profile is learnt all the same (from the catalog core read), with no second read.
    expect(model.profile.toolCalling).toBe(true);
    await model.invoke('hi again');
    expect(starts(events).filter((start) => start.operation === 'models')).toHaveLength(1);
  });

  it('a call core’s gate refuses: its one catalog read is the call’s, the profile learnt from it', async () => {
    const { connection } = await emulate();
    const events: GatewayEvent[] = [];
    const model = new GatewayChatModel('community/plain', {
      ...connection,
      streaming: true,
      onEvent: (event) => events.push(event),
    });
    await expect(model.invoke('hi')).rejects.toMatchObject({
      code: 'unsupported_model_capability',
    });
    const chat = starts(events).find((start) => start.operation === 'chat');
    expect(chat).toBeDefined();
    expect(starts(events).filter((start) => start.operation === 'models')).toEqual([
      { operation: 'models', callId: expect.any(Number), parent: chat?.callId },
    ]);
    expect(model.profile.toolCalling).toBe(false);
  });

  it('a stream on a fresh catalog read (catalogTtlMs: 0) and one slot: its first chunk comes while the model is still answering', async () => {
    const gateway = await emulate();
    // "Echo: " comes, then the model is silent for longer than the test.
    gateway.emulator.injectFault({ fault: 'stall_stream', afterChunks: 2, ms: 60_000 });
    // Before the fix, learning `profile` read the catalog again before the first chunk, and that
    // read waited for the key's one slot, which the open stream held until it ended: its `queued`
    // event, after the chat's `dequeued`, is that wait beginning, and ends the test at once.
    let catalogReadQueued = () => {};
    const queuedBehindStream = new Promise<'queued behind the stream'>((resolve) => {
      catalogReadQueued = () => resolve('queued behind the stream');
    });
    let streamHoldsSlot = false;
    const client = createGatewayClient({
      ...gateway.connection,
      maxConcurrency: 1,
      catalogTtlMs: 0,
      onEvent: (event) => {
        if (event.type === 'dequeued' && event.operation === 'chat') streamHoldsSlot = true;
        if (event.type === 'queued' && event.operation === 'models' && streamHoldsSlot) {
          catalogReadQueued();
        }
      },
    });
    const model = new GatewayChatModel('community/general', { client, streaming: true });
    const controller = new AbortController();
    // LangChain's `stream()` may wait for the first chunk before it returns: it races too.
    const reading = (async () => {
      const stream = await model.stream('hi', { signal: controller.signal });
      for await (const chunk of stream) if (chunk.content !== '') return chunk.content;
    })();
    const first = await Promise.race([reading, queuedBehindStream]);
    controller.abort();
    await reading.catch(() => undefined);
    expect(first).toBe('Echo: ');
  });

  it('a catalog read after the answer (catalogTtlMs: 0) that fails leaves profile unknown, never fails the call', async () => {
    const gateway = await emulate();
    // The gate's read answers; every later one is a 503.
    gateway.emulator.injectFault({
      fault: 'service_unavailable',
      endpoint: 'models',
      afterRequests: 1,
    });
    const client = createGatewayClient({ ...gateway.connection, catalogTtlMs: 0, maxRetries: 0 });
    const model = new GatewayChatModel('community/general', { client });
    expect((await model.invoke('hi')).text).toBe('Echo: hi');
    expect(gateway.emulator.counters.requests.models).toBe(2);
    expect(model.profile.toolCalling).toBeUndefined();
  });
});
