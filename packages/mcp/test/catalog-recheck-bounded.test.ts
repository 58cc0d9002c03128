/**
 * A burst of service calls failing with `provider_unavailable` re-reads `GET /capabilities` once,
 * then at most once more after `RECHECK_MIN_MS` (each read takes one of the key's slots), not once
 * per failure; and `ask_model` failing on an offline model re-reads no services. Through the MCP
 * SDK's Client against the emulator in-process; the interval is the subject, so the test drives
 * the clock (core's timers, `performance.now()`, the server's due read) instead of waiting.
 */
import { drivenClock } from '@infergate/emulator/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { RECHECK_MIN_MS } from '../src/catalog-watch';
import { inMemoryServerOfFile } from './harness';

const { gateway, mcp, client } = inMemoryServerOfFile({
  warm: async () => {
    await client().callTool({
      name: 'translate',
      arguments: { text: 'warm', target_language: 'de' },
    });
    await client().callTool({
      name: 'ask_model',
      arguments: { model: 'community/general', prompt: 'hi' },
    });
  },
});

const clock = drivenClock(vi);
const capabilityReads = () => gateway().emulator.counters.requests.capabilities ?? 0;
/** `count` calls of `name` at once, each with its own `args(i)`. */
const calls = (count: number, name: string, args: (i: number) => Record<string, unknown>) =>
  Promise.all(
    Array.from(
      { length: count },
      (_, i) => client().callTool({ name, arguments: args(i) }) as Promise<CallToolResult>,
    ),
  );
/** Until the key's slots are all back (the catalog reads among them ended). */
const idle = () => clock.settledAfter(0, mcp().client.budget.whenIdle());

describe('the services re-read after provider_unavailable', () => {
  it('is one read for a run of failures, and one more once RECHECK_MIN_MS has passed', async () => {
    gateway().emulator.injectFault({ fault: 'service_unavailable', endpoint: 'translations' });
    clock.drive();
    // Ten failures one after another within the interval, each after the last read ended.
    for (let i = 0; i < 10; i++) {
      const [failed] = await clock.settledAfter(
        (RECHECK_MIN_MS - 1000) / 10,
        calls(1, 'translate', () => ({ text: `x${i}`, target_language: 'de' })),
      );
      expect(failed!.structuredContent).toMatchObject({ error: { code: 'provider_unavailable' } });
      await idle();
    }
    expect(capabilityReads()).toBe(1);

    // The failures after the first read left one read due, once the interval has passed.
    await vi.advanceTimersByTimeAsync(1000);
    await idle();
    expect(capabilityReads()).toBe(2);
    // And nothing more without a new failure.
    await vi.advanceTimersByTimeAsync(RECHECK_MIN_MS * 3);
    await idle();
    expect(capabilityReads()).toBe(2);

    // A failure past the interval is read again at once.
    const [late] = await clock.settledAfter(
      1000,
      calls(1, 'translate', () => ({ text: 'late', target_language: 'de' })),
    );
    expect(late!.isError).toBe(true);
    await idle();
    expect(capabilityReads()).toBe(3);
  });

  it('is not made by ask_model failing on an offline model', async () => {
    // The model goes offline at the gateway (the client's catalog, read before, still lists it).
    gateway().emulator.injectFault({ fault: 'model_offline', model: 'community/general' });
    try {
      clock.drive();
      const failed = await clock.settledAfter(
        1000,
        calls(5, 'ask_model', (i) => ({ model: 'community/general', prompt: `x${i}` })),
      );
      expect(failed.map((result) => result.structuredContent)).toEqual(
        Array(5).fill({ error: expect.objectContaining({ code: 'provider_unavailable' }) }),
      );
      await vi.advanceTimersByTimeAsync(RECHECK_MIN_MS * 2);
      await idle();
      expect(capabilityReads()).toBe(0);
    } finally {
      gateway().emulator.scenario.models['community/general']!.online = true;
      mcp().client.refreshCatalog();
    }
  });
});
