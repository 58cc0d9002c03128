/**
 * An `image_url` / `audio_url` of a scheme other than http(s) is refused naming the scheme given,
 * the rule and what to send instead (zod's bare "Invalid URL" said none of it), through the MCP
 * SDK's Client. Text that is no URL at all keeps zod's own words.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectedHarnessOfFile, textOf } from './harness';

const { harness, client } = connectedHarnessOfFile();

const call = async (name: string, args: Record<string, unknown>) =>
  (await client().callTool({ name, arguments: args })) as CallToolResult;

describe('a media URL of another scheme', () => {
  it.each([
    ['ocr', 'image', 'ftp://example.com/a.png', 'ftp:'],
    ['ocr', 'image', 'file:///etc/passwd', 'file:'],
    ['transcribe', 'audio', 'gopher://example.com/a.wav', 'gopher:'],
  ])(
    '%s refuses %s_url %s naming its scheme and the other ways',
    async (tool, kind, url, scheme) => {
      const before = { ...harness().gateway.emulator.counters.requests };
      const result = await call(tool, { [`${kind}_url`]: url });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain(
        `${kind}_url must be an http(s) URL, got a URL with scheme "${scheme}"`,
      );
      expect(text).toContain(`${kind}_base64`);
      expect(text).toContain(`${kind}_path`);
      expect(harness().gateway.emulator.counters.requests).toEqual(before);
    },
  );

  it('text that is no URL keeps the plain refusal', async () => {
    const result = await call('ocr', { image_url: 'not a url' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toContain('got a URL with scheme');
  });
});
