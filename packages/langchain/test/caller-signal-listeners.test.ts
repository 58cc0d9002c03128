// A stream its caller can abort (docs/gateway-protocol.md §5.2) where the runtime lacks
// `AbortSignal.any` (edge-runtime): the listener on the caller's signal goes when the stream ends.
import { emulate } from '@infergate/emulator/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayChatModel } from '../src';
import { chunksOf } from './helpers';

const any = AbortSignal.any;

describe('a caller signal reused across streams, without AbortSignal.any', () => {
  beforeEach(() => {
    Object.defineProperty(AbortSignal, 'any', { value: undefined, configurable: true });
  });
  afterEach(() => {
    Object.defineProperty(AbortSignal, 'any', { value: any, configurable: true });
  });

  it('keeps no listener once each stream has finished, failed or been left', async () => {
    const { emulator, connection } = await emulate();
    const model = new GatewayChatModel({ ...connection, model: 'community/general' });
    const { signal } = new AbortController();
    const added = vi.spyOn(signal, 'addEventListener');
    const removed = vi.spyOn(signal, 'removeEventListener');
    const listeners = (calls: unknown[][]) =>
      calls.filter(([type]) => type === 'abort').map(([, f]) => f);

    for (let i = 0; i < 3; i++) {
      const chunks = await chunksOf(model.stream('one two three', { signal }));
      expect(chunks.map((chunk) => chunk.content).join('')).toBe('Echo: one two three');
    }
    for await (const _chunk of await model.stream('one two three', { signal })) break;
    emulator.injectFault({ fault: 'stream_error', endpoint: 'chat', times: 1 });
    await expect(chunksOf(model.stream('one two three', { signal }))).rejects.toThrow();

    expect(listeners(added.mock.calls).length).toBeGreaterThanOrEqual(5);
    const left = listeners(added.mock.calls).filter(
      (f) => !listeners(removed.mock.calls).includes(f),
    );
    expect(left).toEqual([]);
  });

  it("still ends a stream when the caller's signal aborts, before it starts or while the model is silent", async () => {
    const { emulator, connection } = await emulate();
    const model = new GatewayChatModel({ ...connection, model: 'community/general' });
    const stopped = AbortSignal.abort(new Error('stopped before'));
    await expect(chunksOf(model.stream('hi', { signal: stopped }))).rejects.toThrow();

    // The role chunk and "Echo: ", then silence longer than any test.
    emulator.injectFault({ fault: 'stall_stream', afterChunks: 2, ms: 60_000 });
    const caller = new AbortController();
    const reading = (async () => {
      for await (const chunk of await model.stream('hi', { signal: caller.signal })) {
        if (chunk.content) caller.abort(new Error('stopped'));
      }
    })();
    await expect(reading).rejects.toThrow();
    await model.client.budget.whenIdle();
  });
});
