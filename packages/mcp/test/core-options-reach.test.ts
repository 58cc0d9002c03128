// Core's steering group reaches the server with no edit in MCP (issue 50): every steering option
// but the tool's own is a server option. (Its timeouts group, flags of the command that reach the
// client it makes: cli-gateway-client.test.ts.)
import { STEERING_OPTIONS } from '@infergate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayMcpServer } from '../src';
import { type Harness, startHarness } from './harness';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

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
