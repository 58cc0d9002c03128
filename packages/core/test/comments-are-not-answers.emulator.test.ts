// Issue 45 point 1: SSE comments, role-only chunks and empty deltas are not the answer. The stall
// clocks count content (text, reasoning, tool-call pieces, a finish): a stream that only keeps
// its connection alive stalls, and before any content reached the caller it may fail over.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { DEFAULT_KEYS, hi, only, recordingClient } from './helpers';

const FOREVER = 60_000;

describe('comments are not answers', () => {
  it('keep-alive comments before the first chunk: firstChunkTimeoutMs fires and the call fails over', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway);
    const { emulator } = gateway;
    emulator.injectFault({
      fault: 'keepalive_first_chunk',
      model: 'community/general',
      ms: FOREVER,
      intervalMs: 10,
    });
    // (300 ms: the fallback's first chunk must come within it, also on a loaded CI machine.)
    const stream = await client.chatStream(hi(), {
      fallbackModels: ['community/streamer'],
      firstChunkTimeoutMs: 300,
    });
    expect((await stream.result()).text).toBe('Echo: hello there');
    expect(stream.route.hops).toEqual([
      { model: 'community/general', outcome: 'failed', reason: 'first_chunk_stall' },
      { model: 'community/streamer', outcome: 'answered' },
    ]);
    expect(only(events, 'failover')).toMatchObject([{ reason: 'first_chunk_stall' }]);
    expect(emulator.counters.inflight[DEFAULT_KEYS.full] ?? 0).toBe(0);
  });

  it('without a list the stall is the retryable first-chunk timeout, not a final one', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway, { maxRetries: 0 });
    const { emulator } = gateway;
    emulator.injectFault({
      fault: 'keepalive_first_chunk',
      model: 'community/general',
      ms: FOREVER,
      intervalMs: 10,
    });
    const error = await caught(
      () => client.chatStream(hi(), { firstChunkTimeoutMs: 100, chunkTimeoutMs: 50 }),
      isGatewayError,
    );
    expect(error.code).toBe('timeout');
    expect(error.stall?.phase).toBe('first-chunk');
    expect(error.isRetryable).toBe(true);
  });

  it('comments sent forever after the first content: chunkTimeoutMs still fires', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway);
    const { emulator } = gateway;
    emulator.injectFault({
      fault: 'keepalive_stream',
      model: 'community/general',
      afterChunks: 2,
      intervalMs: 10,
    });
    const stream = await client.chatStream(hi(), { chunkTimeoutMs: 100 });
    const error = await caught(() => stream.result(), isGatewayError);
    expect(error.code).toBe('timeout');
    expect(error.stall).toMatchObject({ phase: 'between-chunks', limitMs: 100 });
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await client.budget.whenIdle();
    expect(client.budget.active).toBe(0);
  });

  it('empty deltas sent forever: chunkTimeoutMs still fires', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway);
    const { emulator } = gateway;
    emulator.injectFault({
      fault: 'empty_delta_stream',
      model: 'community/general',
      afterChunks: 2,
      intervalMs: 10,
    });
    const stream = await client.chatStream(hi(), { chunkTimeoutMs: 100 });
    const error = await caught(() => stream.result(), isGatewayError);
    expect(error.stall?.phase).toBe('between-chunks');
  });

  it('a role-only first chunk is not content: the first-chunk clock keeps running', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway);
    const { emulator } = gateway;
    // The role chunk, then empty deltas: nothing of the answer.
    emulator.injectFault({
      fault: 'empty_delta_stream',
      model: 'community/general',
      afterChunks: 1,
      intervalMs: 10,
    });
    // (300 ms: the fallback's first chunk must come within it, also on a loaded CI machine.)
    const stream = await client.chatStream(hi(), {
      fallbackModels: ['community/streamer'],
      firstChunkTimeoutMs: 300,
    });
    expect(stream.servedModel).toBe('community/streamer');
    expect(stream.route.hops[0]).toMatchObject({ outcome: 'failed', reason: 'first_chunk_stall' });
  });
});
