/**
 * `ask_model` under the server's stall timeouts (createGatewayMcpServer's `firstChunkTimeoutMs`
 * and `chunkTimeoutMs`), through the MCP SDK's own Client against the emulator: the limit is the
 * subject, so the test drives the clock (fake timers, `performance.now()` and `Date`, as core's
 * stall tests do) instead of waiting through it. The emulator answers in-process (its fetch): no
 * socket, so a moved clock is all that passes.
 */
import { describe, expect, it, vi } from 'vitest';
import { STALL_LIMIT_MS, stallingServerOfFile } from './stalling-server';

const { gateway, mcp, ask, clock, stallFirstChunk, stallStream, untilInflight, budgetIdle } =
  stallingServerOfFile(async (ask) => {
    // Loaded on real timers: a list, and a streamed answer.
    await ask({
      model: 'community/general',
      prompt: 'hi',
      fallback_models: ['community/streamer'],
    });
    await ask({ model: 'community/general', prompt: 'hi' }, true);
  });

/**
 * The stalled request was cut: it ended at the gateway, and the key's slot is back once the gateway
 * can have seen the close (core's grace for a cut request, 100 ms: the clock moves a second).
 */
async function nothingLeftBehind(): Promise<void> {
  await budgetIdle();
  expect(gateway().emulator.counters.inflight[gateway().apiKey] ?? 0).toBe(0);
  expect(mcp().client.budget.active).toBe(0);
}

describe('the stall timeouts of ask_model, on a driven clock', () => {
  it("a stall before the first byte (the server's firstChunkTimeoutMs) fails over at once", async () => {
    stallFirstChunk('community/general');
    clock.drive();
    const asked = ask({
      model: 'community/general',
      prompt: 'hello there',
      fallback_models: ['community/streamer'],
    });
    await untilInflight(1);
    // One ms short of the limit: still waiting on the stalled model.
    await vi.advanceTimersByTimeAsync(STALL_LIMIT_MS - 1);
    expect(gateway().emulator.counters.requests.chat).toBe(1);
    const result = await clock.settledAfter(1, asked);
    expect(result.structuredContent).toMatchObject({
      model: 'community/streamer',
      route: { hops: [{ reason: 'first_chunk_stall' }, { outcome: 'answered' }] },
    });
    expect(gateway().emulator.counters.requests.chat).toBe(2);
    await nothingLeftBehind();
  });

  it("a streamed answer silent between chunks (the server's chunkTimeoutMs) fails with timeout", async () => {
    stallStream('community/general', 2);
    clock.drive();
    const asked = ask({ model: 'community/general', prompt: 'hello there' }, true);
    await untilInflight(1);
    const result = await clock.settledAfter(STALL_LIMIT_MS, asked);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: { code: 'timeout', stall: { phase: 'between-chunks', limitMs: STALL_LIMIT_MS } },
    });
    expect(gateway().emulator.counters.requests.chat).toBe(1);
    await nothingLeftBehind();
  });
});
