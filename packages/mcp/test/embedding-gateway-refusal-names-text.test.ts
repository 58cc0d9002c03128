/**
 * The gateway's refusal of one text names it as the tool's caller gave it: `texts[i]` by its index
 * in the whole list (core sends a long list in several requests, each counting its own texts from
 * 0), and in `similarity` the query as `query`. Through the MCP SDK's Client against the emulator.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectedHarnessOfFile } from './harness';

// The engine takes at most 1500 bytes per text: the gateway (not core) refuses a longer one.
const { harness, client } = connectedHarnessOfFile({
  scenario: {
    services: { embeddings: { engines: { 'all-minilm-l6-v2': { maxTextBytes: 1500 } } } },
  },
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client().callTool({
    name,
    arguments: { engine: 'all-minilm-l6-v2', ...args },
  })) as CallToolResult;
const errorOf = (result: CallToolResult) =>
  (result.structuredContent as { error: Record<string, unknown> }).error;

describe("the gateway's refusal of one embedding text", () => {
  it('names it in embed by its index in the whole list', async () => {
    const texts = Array.from({ length: 100 }, (_, i) => `t${i} ${'y'.repeat(900)}`);
    texts[80] = 'z'.repeat(2000);
    const before = harness().gateway.emulator.counters.requests.embeddings;
    const refused = await call('embed', { texts });
    expect(harness().gateway.emulator.counters.requests.embeddings - before).toBeGreaterThan(1);
    expect(refused.isError).toBe(true);
    expect(errorOf(refused)).toMatchObject({
      code: 'invalid_request_error',
      status: 400,
      field: 'texts[80]',
      what_to_do: 'Fix the argument "texts[80]" as the message says and call the tool again.',
    });
    expect(errorOf(refused).message).toMatch(/^`texts\[80\]` is 2000 bytes in UTF-8/);
  });

  it.each([
    ['query', { query: 'q'.repeat(2000), texts: ['a', 'b'] }],
    ['texts[1]', { query: 'q', texts: ['a', 'b'.repeat(2000)] }],
    ['texts[0]', { query: 'q', texts: ['a'.repeat(2000)] }],
  ])('names %s in similarity', async (argument, args) => {
    const refused = await call('similarity', args);
    expect(refused.isError).toBe(true);
    expect(errorOf(refused)).toMatchObject({ code: 'invalid_request_error', field: argument });
    expect(errorOf(refused).message).toMatch(
      new RegExp(`^\`${argument.replace(/[[\]]/g, '\\$&')}\` is 2000 bytes`),
    );
  });
});
