/**
 * A stall timeout's `what_to_do` when the call already named `fallback_models` and every model
 * stalled: "add fallback_models" would tell the model to do what it did; it is told to try again
 * later or to name other models. Through the MCP SDK's Client against the emulator (in-process),
 * the limit passed on a driven clock.
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
  warm: () =>
    ask({ model: 'community/general', prompt: 'hi', fallback_models: ['community/json-object'] }),
});

function ask(args: Record<string, unknown>): Promise<CallToolResult> {
  return client().callTool({ name: 'ask_model', arguments: args }) as Promise<CallToolResult>;
}

const clock = drivenClock(vi);
const { settledAfter } = clock;

const untilRequests = (count: number) =>
  until(gateway().emulator, (counters) => counters.requests.chat >= count, {
    what: `${count} chat request(s)`,
  });

describe('the what_to_do of a stall on every model named', () => {
  it('says to try again later or name other models, not to add fallback_models', async () => {
    for (const model of ['community/general', 'community/json-object']) {
      gateway().emulator.injectFault({ fault: 'stall_first_chunk', model, ms: FOREVER });
    }
    clock.drive();
    const asked = ask({
      model: 'community/general',
      prompt: 'hello there',
      fallback_models: ['community/json-object'],
    });
    await untilRequests(1);
    const result = await settledAfter(2 * STALL_LIMIT_MS, asked);
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent as {
      error: { code: string; what_to_do: string; route?: { requested: string[] } };
    };
    expect(error.code).toBe('timeout');
    expect(error.route?.requested).toEqual(['community/general', 'community/json-object']);
    expect(error.what_to_do).toBe(
      'Every model tried was too slow (none answered): try again later, or name other models from list_models.',
    );
    await settledAfter(STALL_LIMIT_MS, mcp().client.budget.whenIdle());
  });
});
