/**
 * `ask_model` under the server's stall timeouts (createGatewayMcpServer's `firstChunkTimeoutMs`
 * and `chunkTimeoutMs`), through the MCP SDK's own Client against the emulator: the limit is the
 * subject, so the test drives the clock (fake timers, `performance.now()` and `Date`, as core's
 * stall tests do) instead of waiting through it. The emulator answers in-process (its fetch): no
 * socket, so a moved clock is all that passes.
 */
import { drivenClock, until } from '@infergate/emulator/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { inMemoryServerOfFile } from './harness';

/** The stall limit: its size does not matter, the clock is driven past it. */
const STALL_LIMIT_MS = 1000;
/** Far longer than any test: a stall the client must cut, never one that ends by itself. */
const FOREVER = 60_000;

const { gateway, mcp, client } = inMemoryServerOfFile({
  server: { firstChunkTimeoutMs: STALL_LIMIT_MS, chunkTimeoutMs: STALL_LIMIT_MS },
  // Loaded on real timers: a list, and a streamed answer.
  warm: async () => {
    await ask({
      model: 'community/general',
      prompt: 'hi',
      fallback_models: ['community/streamer'],
    });
    await ask({ model: 'community/general', prompt: 'hi' }, true);
  },
});

/** `ask_model` with `args`; streamed when `progress` (a progress callback asks for the stream). */
function ask(args: Record<string, unknown>, progress = false): Promise<CallToolResult> {
  return client().callTool(
    { name: 'ask_model', arguments: args },
    undefined,
    progress ? { onprogress: () => {} } : undefined,
  ) as Promise<CallToolResult>;
}

/** The clock the tests move (`drive()` fakes it; `settledAfter` moves it and fails on a hang). */
const clock = drivenClock(vi);
const { settledAfter } = clock;

/**
 * The stalled request was cut: it ended at the gateway, and the key's slot is back once the gateway
 * can have seen the close (core's grace for a cut request, 100 ms: the clock moves a second).
 */
async function nothingLeftBehind(): Promise<void> {
  await settledAfter(STALL_LIMIT_MS, mcp().client.budget.whenIdle());
  expect(gateway().emulator.counters.inflight[gateway().apiKey] ?? 0).toBe(0);
  expect(mcp().client.budget.active).toBe(0);
}

/** Until the emulator holds `count` requests of the key (the stalled one among them). */
const untilInflight = (count: number) =>
  until(gateway().emulator, (counters) => (counters.inflight[gateway().apiKey] ?? 0) >= count, {
    what: `${count} request(s) in flight`,
  });

describe('the stall timeouts of ask_model, on a driven clock', () => {
  it("a stall before the first byte (the server's firstChunkTimeoutMs) fails over at once", async () => {
    gateway().emulator.injectFault({
      fault: 'stall_first_chunk',
      model: 'community/general',
      ms: FOREVER,
    });
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
    const result = await settledAfter(1, asked);
    expect(result.structuredContent).toMatchObject({
      model: 'community/streamer',
      route: { hops: [{ reason: 'first_chunk_stall' }, { outcome: 'answered' }] },
    });
    expect(gateway().emulator.counters.requests.chat).toBe(2);
    await nothingLeftBehind();
  });

  it("a streamed answer silent between chunks (the server's chunkTimeoutMs) fails with timeout", async () => {
    gateway().emulator.injectFault({
      fault: 'stall_stream',
      model: 'community/general',
      afterChunks: 2,
      ms: FOREVER,
    });
    clock.drive();
    const asked = ask({ model: 'community/general', prompt: 'hello there' }, true);
    await untilInflight(1);
    const result = await settledAfter(STALL_LIMIT_MS, asked);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: { code: 'timeout', stall: { phase: 'between-chunks', limitMs: STALL_LIMIT_MS } },
    });
    expect(gateway().emulator.counters.requests.chat).toBe(1);
    await nothingLeftBehind();
  });
});
