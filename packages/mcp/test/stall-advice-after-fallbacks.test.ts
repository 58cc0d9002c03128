/**
 * A stall timeout's `what_to_do` when the call already named `fallback_models` and every model
 * stalled: "add fallback_models" would tell the model to do what it did; it is told to try again
 * later or to name other models. Through the MCP SDK's Client against the emulator (in-process),
 * the limit passed on a driven clock.
 */
import { describe, expect, it } from 'vitest';
import { STALL_LIMIT_MS, stallingServerOfFile } from './stalling-server';

const { ask, clock, stallFirstChunk, untilChats, budgetIdle } = stallingServerOfFile((ask) =>
  ask({ model: 'community/general', prompt: 'hi', fallback_models: ['community/json-object'] }),
);

describe('the what_to_do of a stall on every model named', () => {
  it('says to try again later or name other models, not to add fallback_models', async () => {
    stallFirstChunk('community/general', 'community/json-object');
    clock.drive();
    const asked = ask({
      model: 'community/general',
      prompt: 'hello there',
      fallback_models: ['community/json-object'],
    });
    await untilChats(1);
    const result = await clock.settledAfter(2 * STALL_LIMIT_MS, asked);
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent as {
      error: { code: string; what_to_do: string; route?: { requested: string[] } };
    };
    expect(error.code).toBe('timeout');
    expect(error.route?.requested).toEqual(['community/general', 'community/json-object']);
    expect(error.what_to_do).toBe(
      'Every model tried was too slow (none answered): try again later, or name other models from list_models.',
    );
    await budgetIdle();
  });
});
