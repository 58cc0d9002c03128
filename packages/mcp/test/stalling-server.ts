/**
 * For the files that test `ask_model` under the server's stall timeouts (`firstChunkTimeoutMs`,
 * `chunkTimeoutMs`) on a driven clock: the in-memory server of the file (`inMemoryServerOfFile`)
 * with both limits set, `ask_model` through its SDK client, the clock the tests move, and waits on
 * the emulator's state (never on the clock).
 */
import { drivenClock, until } from '@infergate/emulator/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { vi } from 'vitest';
import { inMemoryServerOfFile } from './harness';

/** The stall limit: its size does not matter, the clock is driven past it. */
export const STALL_LIMIT_MS = 1000;
/** Far longer than any test: a stall the client must cut, never one that ends by itself. */
const FOREVER = 60_000;

type Ask = (args: Record<string, unknown>, progress?: boolean) => Promise<CallToolResult>;

/**
 * The file's stalling server. `warm` makes the first calls on real timers (see
 * `inMemoryServerOfFile`); `ask(args, progress)` streams the answer when `progress` (a progress
 * callback asks for the stream).
 */
export function stallingServerOfFile(warm: (ask: Ask) => Promise<unknown>) {
  const { gateway, mcp, client } = inMemoryServerOfFile({
    server: { firstChunkTimeoutMs: STALL_LIMIT_MS, chunkTimeoutMs: STALL_LIMIT_MS },
    warm: () => warm(ask),
  });
  const ask: Ask = (args, progress = false) =>
    client().callTool(
      { name: 'ask_model', arguments: args },
      undefined,
      progress ? { onprogress: () => {} } : undefined,
    ) as Promise<CallToolResult>;
  /** The clock the tests move (`drive()` fakes it; `settledAfter` moves it and fails on a hang). */
  const clock = drivenClock(vi);
  return {
    gateway,
    mcp,
    ask,
    clock,
    /** `models` stall before their first byte, for longer than any test. */
    stallFirstChunk: (...models: string[]) => {
      for (const model of models) {
        gateway().emulator.injectFault({ fault: 'stall_first_chunk', model, ms: FOREVER });
      }
    },
    /** `model`'s streamed answers go quiet after `afterChunks` chunks, for longer than any test. */
    stallStream: (model: string, afterChunks: number) => {
      gateway().emulator.injectFault({ fault: 'stall_stream', model, afterChunks, ms: FOREVER });
    },
    /** Until the emulator holds `count` requests of the key (the stalled one among them). */
    untilInflight: (count: number) =>
      until(gateway().emulator, (counters) => (counters.inflight[gateway().apiKey] ?? 0) >= count, {
        what: `${count} request(s) in flight`,
      }),
    /** Until `count` chat requests came. */
    untilChats: (count: number) =>
      until(gateway().emulator, (counters) => counters.requests.chat >= count, {
        what: `${count} chat request(s)`,
      }),
    /** Until the budget is idle (the cut request's slot back), the clock moved past core's grace. */
    budgetIdle: () => clock.settledAfter(STALL_LIMIT_MS, mcp().client.budget.whenIdle()),
  };
}
