/**
 * The `infergate-mcp` command makes one gateway client: the server's, whose `onEvent` hook gives
 * the tool calls their progress (run in-process, with core's factory counted).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

const made = vi.hoisted(() => ({ clients: 0 }));
vi.mock('@infergate/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@infergate/core')>();
  return {
    ...core,
    createGatewayClient: (...args: Parameters<typeof core.createGatewayClient>) => {
      made.clients += 1;
      return core.createGatewayClient(...args);
    },
  };
});

let harness: Harness;
let runCli: typeof import('../src/cli-main').runCli;
beforeAll(async () => {
  harness = await startHarness();
  // Test files may share one module graph: core and the CLI are loaded afresh, so the CLI gets the
  // counting factory even when another file loaded them first.
  vi.resetModules();
  ({ runCli } = await import('../src/cli-main'));
});
afterAll(() => harness.close());

describe('infergate-mcp', () => {
  it('builds one gateway client, the server’s own (progress still comes from it)', async () => {
    const lines: string[] = [];
    const before = made.clients;
    const running = await runCli(
      [
        ...['--http', '--port', '0', '--catalog-refresh', '0'],
        ...['--base-url', harness.gateway.baseURL, '--api-key', harness.gateway.apiKey],
      ],
      {},
      { log: (line) => lines.push(line), print: () => {} },
    );
    try {
      expect(made.clients - before).toBe(1);
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
      expect(made.clients - before).toBe(1);
      expect(lines.at(-1)).toMatch(/^infergate-mcp: listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    } finally {
      await running?.close();
    }
  });
});
