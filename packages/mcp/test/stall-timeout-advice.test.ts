/**
 * A stall timeout's `what_to_do` fits a stall (the model server went quiet), not a slow call over
 * a large input: "try a smaller input" would not help, another call or another model may. Through
 * the MCP SDK's Client against the emulator (in-process), the limit passed on a driven clock.
 */
import { drivenClock, until } from '@infergate/emulator/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { inMemoryServerOfFile } from './harness';

const STALL_LIMIT_MS = 1000;
/** Far longer than any test: a stall the client must cut. */
const FOREVER = 60_000;

const { gateway, mcp, client } = inMemoryServerOfFile({
  server: { firstChunkTimeoutMs: STALL_LIMIT_MS, chunkTimeoutMs: STALL_LIMIT_MS },
  // Loaded on real timers: a plain answer, and a streamed one.
  warm: async () => {
    await ask({ model: 'community/general', prompt: 'hi' });
    await ask({ model: 'community/general', prompt: 'hi' }, true);
  },
});

function ask(args: Record<string, unknown>, progress = false): Promise<CallToolResult> {
  return client().callTool(
    { name: 'ask_model', arguments: args },
    undefined,
    progress ? { onprogress: () => {} } : undefined,
  ) as Promise<CallToolResult>;
}

const clock = drivenClock(vi);
const { settledAfter } = clock;

const untilInflight = (count: number) =>
  until(gateway().emulator, (counters) => (counters.inflight[gateway().apiKey] ?? 0) >= count, {
    what: `${count} request(s) in flight`,
  });

/** The error of a failed result, and its text block. */
function errorOf(result: CallToolResult) {
  expect(result.isError).toBe(true);
  const { error } = result.structuredContent as {
    error: { code: string; what_to_do: string; stall?: { phase: string } };
  };
  const first = result.content[0];
  return { error, text: first?.type === 'text' ? first.text : '' };
}

describe('the what_to_do of a stall timeout', () => {
  it('a model slow to start: try again or another model, not a smaller input', async () => {
    gateway().emulator.injectFault({
      fault: 'stall_first_chunk',
      model: 'community/general',
      ms: FOREVER,
    });
    clock.drive();
    const asked = ask({ model: 'community/general', prompt: 'hello there' });
    await untilInflight(1);
    const { error, text } = errorOf(await settledAfter(STALL_LIMIT_MS, asked));
    expect(error).toMatchObject({ code: 'timeout', stall: { phase: 'first-chunk' } });
    expect(error.what_to_do).toBe(
      'The model was too slow to start answering: try again, or add fallback_models (another model).',
    );
    expect(text).toContain(error.what_to_do);
    expect(text).not.toContain('smaller input');
    await settledAfter(STALL_LIMIT_MS, mcp().client.budget.whenIdle());
  });

  it('a stream gone quiet part way: try again or another model, not a smaller input', async () => {
    gateway().emulator.clearFaults();
    gateway().emulator.injectFault({
      fault: 'stall_stream',
      model: 'community/general',
      afterChunks: 2,
      ms: FOREVER,
    });
    clock.drive();
    const asked = ask({ model: 'community/general', prompt: 'hello there' }, true);
    await untilInflight(1);
    const { error } = errorOf(await settledAfter(STALL_LIMIT_MS, asked));
    expect(error).toMatchObject({ code: 'timeout', stall: { phase: 'between-chunks' } });
    expect(error.what_to_do).toBe(
      'The model stopped sending its answer part way: try again, or add fallback_models (another model).',
    );
    await settledAfter(STALL_LIMIT_MS, mcp().client.budget.whenIdle());
  });
});
