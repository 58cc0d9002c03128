/**
 * A hedged `ask_model` (the server's `hedge`) shows its race (rv-steer7 F4): the result carries
 * the route with or without `fallback_models`, the loser a `lost` hop in it, and the note after
 * an answer by another model names the loser. Through the MCP SDK's own Client against the
 * emulator, in-process, on a driven clock (the hedge's delay is the subject).
 */
import { drivenClock } from '@infergate/emulator/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GatewayMcpServerOptions } from '../src/index';
import { expectEchoRouted, inMemoryServer } from './harness';

const HEDGE_AFTER_MS = 50;
/** Far longer than any test: a stall the hedge must beat, never one that ends by itself. */
const FOREVER = 60_000;

const clock = drivenClock(vi);
const { settledAfter } = clock;

const opened: (() => Promise<void>)[] = [];

/** A fresh gateway (its key's hedge allowance fresh) and a server on it with `options`. */
async function connected(options: Partial<GatewayMcpServerOptions>) {
  const { gateway, client, close } = await inMemoryServer(options, { maxRetries: 0 });
  opened.push(close);
  const ask = (args: Record<string, unknown>) =>
    client.callTool({ name: 'ask_model', arguments: args }) as Promise<CallToolResult>;
  return { gateway, ask };
}

const HEDGED = { hedge: { afterMs: HEDGE_AFTER_MS, maxExtra: 1 } };

/** `args` asked of a hedged server whose `community/general` holds its first answer. */
async function hedgedAsk(args: Record<string, unknown>) {
  const { gateway, ask } = await connected(HEDGED);
  // Its first request only: a hedge to the same model (no list) is answered.
  gateway.emulator.injectFault({
    fault: 'stall_first_chunk',
    model: 'community/general',
    ms: FOREVER,
    times: 1,
  });
  clock.drive();
  return settledAfter(HEDGE_AFTER_MS, ask(args));
}

beforeAll(async () => {
  // Core loads its steering on first use, and a module load under vitest waits on timers: loaded
  // here, on real ones, before a test fakes them.
  const { ask } = await connected({ hedge: { afterMs: FOREVER } });
  await ask({ model: 'community/general', prompt: 'hi', fallback_models: ['community/streamer'] });
});

afterEach(async () => {
  vi.useRealTimers();
  for (const close of opened.splice(0)) await close();
});

describe('a hedged ask_model: its route and note show the race', () => {
  it('without fallback_models: the route is in the result, the first attempt lost', async () => {
    const result = await hedgedAsk({ model: 'community/general', prompt: 'hi' });
    expectEchoRouted(
      result,
      { model: 'community/general', outcome: 'lost' },
      { model: 'community/general', outcome: 'answered' },
    );
  });

  it('with fallback_models: the note names the loser beside the answering model', async () => {
    const result = await hedgedAsk({
      model: 'community/general',
      prompt: 'hi',
      fallback_models: ['community/streamer'],
    });
    expect(result.structuredContent).toMatchObject({
      model: 'community/streamer',
      route: {
        hops: [
          { model: 'community/general', outcome: 'lost' },
          { model: 'community/streamer', outcome: 'answered' },
        ],
      },
    });
    const [first] = result.content;
    expect(first).toEqual({
      type: 'text',
      text: 'Echo: hi\n\n(answered by community/streamer in place of community/general; community/general: lost (hedged: the other attempt answered first))',
    });
  });

  it('a server that steers nothing, a call of one model: no route, as before', async () => {
    const { ask } = await connected({});
    const result = await ask({ model: 'community/general', prompt: 'hi' });
    expect(result.structuredContent).not.toHaveProperty('route');
  });
});
