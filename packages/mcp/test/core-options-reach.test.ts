// Core's option groups reach the server with no edit in MCP (issue 50): every `timeouts` option is
// a command-line flag and reaches the client the server makes; every steering option but the
// tool's own is a server option.
import { STEERING_OPTIONS, TIMEOUT_OPTIONS } from '@infergate/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewayMcpServer } from '../src';
import { type Harness, startHarness } from './harness';

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
  vi.resetModules();
  ({ runCli } = await import('../src/cli-main'));
});
afterAll(() => harness.close());

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

describe("core's timeouts group, given to infergate-mcp", () => {
  it('every option of the descriptor reaches the client the server makes', async () => {
    const keys = Object.keys(TIMEOUT_OPTIONS.fields);
    // Distinct values, each less than the deadline (a stall timeout above it is taken anyway).
    const given = Object.fromEntries(keys.map((key, i) => [key, 60_000 - i * 1000]));
    const flags = keys.flatMap((key) => [`--${kebab(key)}`, String(given[key])]);
    const before = made.options.length;
    const running = await runCli(
      [
        ...['--http', '--port', '0', '--catalog-refresh', '0'],
        ...['--base-url', harness.gateway.baseURL, '--api-key', harness.gateway.apiKey],
        ...flags,
      ],
      {},
      { log: () => {}, print: () => {} },
    );
    await running?.close();
    expect(made.options.length).toBe(before + 1);
    expect(made.options.at(-1)).toMatchObject(given);
  });
});

describe("core's steering group, given to createGatewayMcpServer", () => {
  const serverKeys = Object.keys(STEERING_OPTIONS.fields).filter(
    (key) => key !== 'fallbackModels' && key !== 'structuredOutput',
  );
  const values: Record<string, unknown> = {
    firstChunkTimeoutMs: 5000,
    chunkTimeoutMs: 5000,
    hedge: { afterMs: 100 },
  };

  it.each(serverKeys)('takes %s (every steering option but the tool’s own)', async (key) => {
    expect(values).toHaveProperty(key);
    const gateway = createGatewayMcpServer({
      clientOptions: { baseURL: harness.gateway.baseURL, apiKey: harness.gateway.apiKey },
      catalogRefreshMs: 0,
      [key]: values[key],
    });
    await gateway.close();
  });

  it.each(['fallbackModels', 'structuredOutput'])(
    'refuses %s: an argument of each ask_model call',
    (key) => {
      expect(() => createGatewayMcpServer({ [key]: {} } as never)).toThrow(
        `unknown option \`${key}\``,
      );
    },
  );
});
