/**
 * One gateway client per server: every session's calls share the key's 4 slots; cancelling a call
 * aborts its gateway request and gives its slot back; long calls report MCP progress.
 */
import { pngWithText } from '@infergate/emulator/fixtures';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf, wire } from './harness';

let harness: Harness;
let sessions: Client[];
beforeAll(async () => {
  harness = await startHarness({ scenario: { latencyMs: 30 } });
  sessions = await Promise.all([harness.connect(), harness.connect(), harness.connect()]);
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.gateway.emulator.clearFaults();
  harness.gateway.emulator.resetCounters();
});

const counters = () => harness.gateway.emulator.counters;
const key = () => harness.gateway.apiKey;

describe('the key budget', () => {
  it('keeps 20 concurrent tool calls from three sessions at 4 or fewer in flight', async () => {
    const calls = Array.from({ length: 20 }, (_, i) =>
      sessions[i % 3]!.callTool(
        i % 2 === 0
          ? { name: 'translate', arguments: { text: `text ${i}`, target_language: 'de' } }
          : {
              name: 'ocr',
              arguments: { image_base64: Buffer.from(pngWithText(`page ${i}`)).toString('base64') },
            },
      ),
    );
    const results = await Promise.all(calls);

    expect(results.filter((result) => result.isError)).toEqual([]);
    expect(results.map(textOf)).toContain('[de] text 18');
    expect(results.map(textOf)).toContain('page 19');
    expect(counters().requests.translations + counters().requests.ocr).toBe(20);
    expect(counters().maxInflight[key()]).toBeLessThanOrEqual(4);
    expect(counters().maxInflight[key()]).toBeGreaterThan(1);
    expect(counters().concurrencyRejections).toBe(0);
  });

  it('cancelling a call (notifications/cancelled) aborts its gateway request and frees its slot', async () => {
    harness.gateway.emulator.injectFault({
      fault: 'slow_headers',
      endpoint: 'ocr',
      ms: 120_000,
      times: 1,
    });
    const controller = new AbortController();
    const cancelled = sessions[0]!.callTool(
      {
        name: 'ocr',
        arguments: { image_base64: Buffer.from(pngWithText('never read')).toString('base64') },
      },
      undefined,
      { signal: controller.signal },
    );
    await harness.gateway.until((c) => c.requests.ocr === 1 && c.inflight[key()] === 1);
    expect(harness.mcp.client.budget.active).toBe(1);

    controller.abort('the user changed their mind');
    await expect(cancelled).rejects.toThrow();
    await harness.mcp.client.budget.whenIdle();
    expect(harness.mcp.client.budget.active).toBe(0);
    await harness.gateway.untilIdle({ key: key() });

    // The slot is usable: four calls at once all run.
    const after = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        sessions[1]!.callTool({
          name: 'translate',
          arguments: { text: `after ${i}`, target_language: 'uk' },
        }),
      ),
    );
    expect(after.map(textOf)).toEqual([
      '[uk] after 0',
      '[uk] after 1',
      '[uk] after 2',
      '[uk] after 3',
    ]);
  });
});

describe('progress', () => {
  it('reports the gateway call’s steps to a client that sent a progressToken', async () => {
    const messages: string[] = [];
    const result = await sessions[0]!.callTool(
      { name: 'translate', arguments: { text: 'hi', target_language: 'de' } },
      undefined,
      { onprogress: (progress) => messages.push(progress.message ?? '') },
    );
    expect(textOf(result)).toBe('[de] hi');
    // A slot was free: nothing says the call waited for one (rv-2mcp F3).
    expect(messages).toEqual(['translation: sent to the gateway', 'translation: answered']);
  });

  it('streams ask_model and reports the answer as it arrives', async () => {
    const progress: { progress: number; message?: string }[] = [];
    const result = await sessions[1]!.callTool(
      { name: 'ask_model', arguments: { model: 'community/general', prompt: '[[words:300]]' } },
      undefined,
      { onprogress: (step) => progress.push(step) },
    );
    expect(textOf(result).startsWith('word1 word2')).toBe(true);
    expect(counters().requests.chat).toBe(1);
    expect(
      progress.some((step) => /characters of the answer received$/.test(step.message ?? '')),
    ).toBe(true);
    // MCP requires progress to grow with every notification.
    const values = progress.map((step) => step.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
  });

  it('sends no progress to a client that did not ask for it', async () => {
    const progressSent = () => wire.filter((m) => m.includes('notifications/progress')).length;
    const before = progressSent();
    const result = await sessions[2]!.callTool({
      name: 'ask_model',
      arguments: { model: 'community/general', prompt: 'quiet' },
    });
    expect(textOf(result)).toBe('Echo: quiet');
    expect(progressSent()).toBe(before);
  });
});
