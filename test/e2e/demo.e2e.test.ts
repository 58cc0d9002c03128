import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { examplesDir, runNode } from '../helpers/run';

// The demo README's table, one row per step: `| n | heading | what it shows | uses |`.
const README_STEPS = [
  ...readFileSync(join(examplesDir('demo'), 'README.md'), 'utf8').matchAll(
    /^\| (\d+) \| ([^|]+) \|/gm,
  ),
].map(([, index, title]) => `[${index}/COUNT] ${title?.trim()}`);
const STEP_COUNT = README_STEPS.length;
/** The headings the demo printed (`[3/18] LangChain: stream`), in order. */
const headings = (stdout: string) => stdout.match(/^\[\d+\/\d+\] .+$/gm) ?? [];
const runDemo = (env: Record<string, string> = {}) =>
  runNode(examplesDir('demo'), ['--experimental-strip-types', 'src/index.ts'], env, 90_000);

describe('the guided demo (examples/demo)', () => {
  it('passes every step on its embedded emulator', async () => {
    const result = await runDemo();
    expect(result.code, result.output).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/Gateway: the embedded emulator at http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(out).toContain(`Summary: ${STEP_COUNT} passed, 0 skipped, 0 failed`);
    // The README lists exactly the steps the demo runs, in its order, by their headings.
    expect(headings(out)).toEqual(
      README_STEPS.map((row) => row.replace('COUNT', String(STEP_COUNT))),
    );
    // No colour codes when the output is not a terminal.
    expect(out).not.toContain('\x1b[');
    // A few results that prove what the steps claim.
    expect(out).toContain('served by: pool-a/llama-3-8b');
    expect(out).toMatch(/emulator chat counter: (\d+) before, \1 after/);
    expect(out).toContain('statuses seen by the client: 429 → 200');
    expect(out).toMatch(/20\/20 max in flight: [1-4], 429s: 0/);
    expect(out).toContain(
      'heard: Hello from infergate. Please send the quarterly report by Friday.',
    );
    expect(out).toContain('read: INVOICE 42');
    expect(out).toContain('→ get_weather({"city":"Lviv"})');
    // The MCP server, spawned over stdio, read the file under its root and refused one outside.
    expect(out).toContain('mcp ocr: INVOICE 42');
    expect(out).toContain('mcp translate: [uk] INVOICE 42');
    expect(out).toMatch(
      /refused: Cannot use the file: \.\.\/\.\.\/etc\/passwd is outside the allowed roots/,
    );
  });

  it('against a configured gateway, skips the emulator-only steps and picks models by capability', async () => {
    // A scenario unlike the default: the everything model is gone, so the picks must come
    // from the live catalog.
    const gateway = await emulate({
      as: 'http',
      scenario: { models: { 'community/general': null, 'community/plain': null } },
    });
    try {
      const result = await runDemo({
        INFERGATE_BASE_URL: gateway.baseURL,
        INFERGATE_API_KEY: gateway.apiKey,
      });
      expect(result.code, result.output).toBe(0);
      const out = result.stdout;
      expect(out).toContain(`Gateway: ${gateway.baseURL}`);
      expect(out).toContain(`Summary: ${STEP_COUNT - 2} passed, 2 skipped, 0 failed`);
      expect(out).toMatch(/skipped: it needs an offline my\/\.\.\. model/);
      expect(out).toMatch(/skipped: it injects a 429/);
      expect(out).not.toContain('community/general');
      // The refusal was counted by the demo itself, and nothing reached the chat endpoint.
      expect(out).toMatch(/chat requests sent: (\d+) before, \1 after/);
      expect(gateway.emulator.counters.concurrencyRejections).toBe(0);
      expect(gateway.emulator.counters.maxInflight[gateway.apiKey]).toBeLessThanOrEqual(4);
    } finally {
      await gateway.close();
    }
  });

  it('exits 1 and names the failed step and its typed error', async () => {
    const gateway = await emulate({
      as: 'http',
      scenario: { services: { ocr: { availableNodes: 0 } } },
    });
    try {
      const result = await runDemo({
        INFERGATE_BASE_URL: gateway.baseURL,
        INFERGATE_API_KEY: gateway.apiKey,
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/1 failed/);
      expect(result.stdout).toMatch(
        /failed: Text from an image \(OCR\): (GatewayError|APICallError) provider_unavailable/,
      );
      // The MCP server leaves the unavailable service's tool out and the step still passes.
      expect(result.stdout).toContain('ocr is not offered: the OCR service has no available nodes');
    } finally {
      await gateway.close();
    }
  });
});
