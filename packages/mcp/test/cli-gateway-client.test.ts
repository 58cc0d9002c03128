/**
 * The gateway client the `infergate-mcp` command makes (run in-process, core's factory recorded):
 * one, the server's, whose `onEvent` hook gives the tool calls their progress; and every option of
 * core's `timeouts` group is a command-line flag that reaches it, with no edit in MCP (issue 50).
 */
import { TIMEOUT_OPTIONS } from '@infergate/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

/** The options of each gateway client core's factory made, in order. */
const made = vi.hoisted(() => ({ options: [] as unknown[] }));
vi.mock('@infergate/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@infergate/core')>();
  return {
    ...core,
    createGatewayClient: (...args: Parameters<typeof core.createGatewayClient>) => {
      made.options.push(args[0]);
      return core.createGatewayClient(...args);
    },
  };
});

let harness: Harness;
let runCli: typeof import('../src/cli-main').runCli;
beforeAll(async () => {
  harness = await startHarness();
  // Test files may share one module graph: core and the CLI are loaded afresh, so the CLI gets the
  // recording factory even when another file loaded them first.
  vi.resetModules();
  ({ runCli } = await import('../src/cli-main'));
});
afterAll(() => harness.close());

/** `infergate-mcp --http` on a free port against the harness's gateway, with `flags`. */
const startCli = (flags: string[], log: (line: string) => void = () => {}) =>
  runCli(
    [
      ...['--http', '--port', '0', '--catalog-refresh', '0'],
      ...['--base-url', harness.gateway.baseURL, '--api-key', harness.gateway.apiKey],
      ...flags,
    ],
    {},
    { log, print: () => {} },
  );

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

describe('infergate-mcp', () => {
  it('builds one gateway client, the server’s own (progress still comes from it)', async () => {
    const lines: string[] = [];
    const before = made.options.length;
    const running = await startCli([], (line) => lines.push(line));
    try {
      expect(made.options.length - before).toBe(1);
      const client = new Client({ name: 'one-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(running!.url!)));
      const steps: string[] = [];
      const result = await client.callTool(
        { name: 'translate', arguments: { text: 'once', target_language: 'de' } },
        undefined,
        { onprogress: (progress) => steps.push(progress.message ?? '') },
      );
      await client.close();
      expect(textOf(result)).toBe('[de] once');
      expect(steps).toContain('translation: sent to the gateway');
      expect(made.options.length - before).toBe(1);
      expect(lines.at(-1)).toMatch(/^infergate-mcp: listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    } finally {
      await running?.close();
    }
  });
});

describe("core's timeouts group, given to infergate-mcp", () => {
  it('every option of the descriptor reaches the client the server makes', async () => {
    const keys = Object.keys(TIMEOUT_OPTIONS.fields);
    // Distinct values, each less than the deadline (a stall timeout above it is taken anyway).
    const given = Object.fromEntries(keys.map((key, i) => [key, 60_000 - i * 1000]));
    const flags = keys.flatMap((key) => [`--${kebab(key)}`, String(given[key])]);
    const before = made.options.length;
    const running = await startCli(flags);
    await running?.close();
    expect(made.options.length).toBe(before + 1);
    expect(made.options.at(-1)).toMatchObject(given);
  });
});
