/**
 * `embed`'s and `similarity`'s schemas state the limit of one text (core's `LIMITS`: the request's
 * bytes, less on the multilingual engine), so a model splits long documents before it calls; and
 * the limits stated are the ones core refuses by. Through the MCP SDK's Client against the emulator.
 */
import { LIMITS } from '@infergate/core';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectedHarnessOfFile } from './harness';

const { client } = connectedHarnessOfFile();

const described = (tool: Tool, argument: string) =>
  (tool.inputSchema.properties?.[argument] as { description?: string } | undefined)?.description ??
  '';

/** One text of `bytes` bytes of UTF-8. */
const textOfBytes = (bytes: number) => 'a'.repeat(bytes);

describe('the limit of one embedding text', () => {
  it('is stated in the texts and query schemas, in core’s numbers', async () => {
    const { tools } = await client().listTools();
    const tool = (name: string) => tools.find((listed) => listed.name === name)!;
    const stated = [
      described(tool('embed'), 'texts'),
      described(tool('similarity'), 'texts'),
      described(tool('similarity'), 'query'),
    ];
    for (const description of stated) {
      expect(description).toContain(`${LIMITS.embeddingsMaxTotalBytes} bytes of UTF-8`);
      expect(description).toContain(
        `${LIMITS.multilingualMaxTextBytes} with the multilingual engine`,
      );
    }
  });

  it.each([
    ['all-minilm-l6-v2', LIMITS.embeddingsMaxTotalBytes],
    ['multilingual-e5-base', LIMITS.multilingualMaxTextBytes],
  ])('is the one a text and a query are refused past (%s: %i bytes)', async (engine, limit) => {
    const over = textOfBytes(limit + 1);
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client().callTool({ name, arguments: { engine, ...args } })) as CallToolResult;
    for (const refused of [
      await call('embed', { texts: [over] }),
      await call('similarity', { query: 'q', texts: [over] }),
      await call('similarity', { query: over, texts: ['t'] }),
    ]) {
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ error: { code: 'invalid_request_error' } });
      expect((refused.structuredContent as { error: { message: string } }).error.message).toContain(
        `${limit} bytes`,
      );
    }
    const fits = await call('embed', { texts: [textOfBytes(limit)] });
    expect(fits.isError).toBeFalsy();
  });
});
