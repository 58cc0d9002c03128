import { createGatewayClient, type GatewayEvent } from '@infergate/core';
import { DEFAULT_KEYS, type ModelCapability } from '@infergate/emulator';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRESS, writeResult } from './harness/results';

/**
 * Issue 46.3: hedged streams against the emulator's real HTTP server (a cut loser is counted by
 * the gateway until it sees the close) on a heavy-tailed pool: every call answered once, never
 * more than the key's 4 at the gateway, 0 429s, and no slot held afterwards. `pnpm test` runs
 * 1,000 (about 30 held answers, so hedges are sent and won); `pnpm stress` the soak, 30,000.
 */

const CALLS = STRESS ? 30_000 : 1_000;
/** Fewer callers than the key's 4 slots: a hedge is sent only into a free slot. */
const CALLERS = 3;
const MODELS = ['soak/c1', 'soak/c2', 'soak/c3'];

let server: EmulatedGateway;

beforeAll(async () => {
  const copy = {
    capabilities: ['chat', 'streaming'] as ModelCapability[],
    capacity: 4,
    // A short body with a held share: a hedge after 12 ms escapes the held copies.
    firstChunkMs: {
      distribution: 'lognormal' as const,
      p50Ms: 2,
      p99Ms: 8,
      held: { share: 0.03, minMs: 40, maxMs: 80 },
      seed: 46,
    },
  };
  server = await emulate({
    as: 'http',
    scenario: { models: Object.fromEntries(MODELS.map((id) => [id, copy])) },
  });
});

afterAll(async () => {
  await server.close();
});

describe('hedged calls soak', { timeout: 600_000 }, () => {
  it(`${CALLS} hedged streams: each answered once, ≤ 4 in flight, 0 429s, no slot left`, async () => {
    const hedges = { sent: 0, won: 0 };
    const client = createGatewayClient({
      baseURL: server.baseURL,
      apiKey: DEFAULT_KEYS.full,
      hedge: { afterMs: 12, maxExtra: 0.1 },
      onEvent: (event: GatewayEvent) => {
        if (event.type !== 'hedge') return;
        if (event.phase === 'sent') hedges.sent++;
        else if (event.winner === 'hedge') hedges.won++;
      },
    });
    let next = 0;
    const wrong: string[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        while (next < CALLS) {
          const i = next++;
          const stream = await client.chatStream(
            { model: MODELS[0]!, messages: [{ role: 'user', content: `call ${i}` }] },
            { fallbackModels: MODELS.slice(1) },
          );
          const { text } = await stream.result();
          if (text !== `Echo: call ${i}`) wrong.push(`${i}: ${text.slice(0, 40)}`);
        }
      }),
    );
    const wallMs = performance.now() - started;
    await client.budget.whenIdle();
    const counters = server.emulator.counters;
    const result = {
      calls: CALLS,
      hedgesSent: hedges.sent,
      hedgesWon: hedges.won,
      extraShare: hedges.sent / CALLS,
      maxInflight: counters.maxInflight[DEFAULT_KEYS.full],
      concurrencyRejections: counters.concurrencyRejections,
      wallMs: Math.round(wallMs),
    };
    writeResult('hedge-soak', result);
    expect(wrong).toEqual([]);
    expect(hedges.sent).toBeGreaterThan(0);
    // The cap is a token bucket: maxExtra of the calls, plus at most its saved-up burst.
    expect(hedges.sent).toBeLessThanOrEqual(CALLS * 0.1 + 4);
    expect(result.maxInflight).toBeLessThanOrEqual(4);
    expect(result.concurrencyRejections).toBe(0);
    expect(client.budget.active).toBe(0);
    expect(counters.inflight[DEFAULT_KEYS.full] ?? 0).toBe(0);
  });
});
