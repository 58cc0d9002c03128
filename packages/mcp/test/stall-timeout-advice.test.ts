/**
 * A stall timeout's `what_to_do` fits a stall (the model server went quiet), not a slow call over
 * a large input: "try a smaller input" would not help, another call or another model may. Through
 * the MCP SDK's Client against the emulator (in-process), the limit passed on a driven clock.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { STALL_LIMIT_MS, stallingServerOfFile } from './stalling-server';

const { gateway, ask, clock, stallFirstChunk, stallStream, untilInflight, budgetIdle } =
  stallingServerOfFile(async (ask) => {
    // Loaded on real timers: a plain answer, and a streamed one.
    await ask({ model: 'community/general', prompt: 'hi' });
    await ask({ model: 'community/general', prompt: 'hi' }, true);
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
    stallFirstChunk('community/general');
    clock.drive();
    const asked = ask({ model: 'community/general', prompt: 'hello there' });
    await untilInflight(1);
    const { error, text } = errorOf(await clock.settledAfter(STALL_LIMIT_MS, asked));
    expect(error).toMatchObject({ code: 'timeout', stall: { phase: 'first-chunk' } });
    expect(error.what_to_do).toBe(
      'The model was too slow to start answering: try again, or add fallback_models (another model).',
    );
    expect(text).toContain(error.what_to_do);
    expect(text).not.toContain('smaller input');
    await budgetIdle();
  });

  it('a stream gone quiet part way: try again or another model, not a smaller input', async () => {
    gateway().emulator.clearFaults();
    stallStream('community/general', 2);
    clock.drive();
    const asked = ask({ model: 'community/general', prompt: 'hello there' }, true);
    await untilInflight(1);
    const { error } = errorOf(await clock.settledAfter(STALL_LIMIT_MS, asked));
    expect(error).toMatchObject({ code: 'timeout', stall: { phase: 'between-chunks' } });
    expect(error.what_to_do).toBe(
      'The model stopped sending its answer part way: try again, or add fallback_models (another model).',
    );
    await budgetIdle();
  });
});
