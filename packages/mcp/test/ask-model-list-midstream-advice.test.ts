/**
 * `ask_model` with `fallback_models`, progress wanted, over a list whose every model streams: the
 * answer is streamed (core's plan), and once content has come a failure ends the call as core's
 * streams do — the listed fallback is not tried. Its `what_to_do` then must not tell the model to
 * add fallback_models (the call had them). Without progress the same call is asked whole, and a
 * model whose whole answer fails passes it to the listed fallback. Through the MCP SDK's Client
 * against the emulator (in-process), the chunk timeout passed on a driven clock.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { STALL_LIMIT_MS, stallingServerOfFile } from './stalling-server';

const LISTED = {
  model: 'community/streamer',
  prompt: 'a b c d e f g h',
  fallback_models: ['community/general'],
};

const { gateway, ask, clock, stallStream, untilInflight, budgetIdle } = stallingServerOfFile(
  async (ask) => {
    // Loaded on real timers: the list streamed (progress wanted), and asked whole.
    await ask(LISTED, true);
    await ask(LISTED);
  },
);

interface ToolError {
  code: string;
  what_to_do: string;
  stall?: { phase: string };
  route: { requested: string[]; hops: { model: string; outcome: string }[] };
}

const chats = () => gateway().emulator.counters.requests.chat;

describe('ask_model over a streaming list, the first model failing part way', () => {
  it('with progress: the call ends, and what_to_do does not say to add fallback_models', async () => {
    gateway().emulator.clearFaults();
    stallStream('community/streamer', 2);
    const before = chats();
    clock.drive();
    const asked = ask(LISTED, true);
    await untilInflight(1);
    const result: CallToolResult = await clock.settledAfter(STALL_LIMIT_MS, asked);
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent as { error: ToolError };
    expect(error).toMatchObject({ code: 'timeout', stall: { phase: 'between-chunks' } });
    expect(error.route.requested).toEqual(['community/streamer', 'community/general']);
    expect(error.route.hops).toEqual([
      { model: 'community/streamer', outcome: 'ended', code: 'timeout' },
    ]);
    // The fallback was never asked: content had come.
    expect(chats() - before).toBe(1);
    expect(error.what_to_do).not.toMatch(/add fallback_models/);
    expect(error.what_to_do).toBe(
      'The model stopped sending its answer part way; once an answer has begun, the call does not move on to fallback_models: try again, or name another model first.',
    );
    expect((result.content[0] as { text: string }).text).toContain(error.what_to_do);
    await budgetIdle();
  });

  it('without progress: asked whole, a failed answer of the first model goes to the fallback', async () => {
    gateway().emulator.clearFaults();
    // A stream's fault does not touch a whole answer; the model's whole answer fails instead.
    stallStream('community/streamer', 2);
    gateway().emulator.injectFault({ fault: 'bad_gateway', model: 'community/streamer' });
    const result = await ask(LISTED);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      model: 'community/general',
      route: {
        requested: ['community/streamer', 'community/general'],
        hops: [
          { model: 'community/streamer', outcome: 'failed' },
          { model: 'community/general', outcome: 'answered' },
        ],
        answeredBy: 'community/general',
      },
    });
  });
});
