/**
 * A server that downloads nothing (`--no-urls`, `allowUrls: false`) says why once however many
 * URL arguments a call holds, naming at most five of them and counting the rest (as every other
 * unknown argument is named): not one full refusal per key, 60 KB of text for 300 of them. And
 * where URLs are allowed, a URL argument the tool does not take gets no word of `--no-urls`: the
 * closest argument is named. Through the MCP SDK's Client against the emulator.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

let noUrls: Harness;
let urls: Harness;
beforeAll(async () => {
  noUrls = await startHarness({ server: { allowUrls: false } });
  urls = await startHarness();
}, 120_000);
afterAll(async () => {
  await noUrls.close();
  await urls.close();
});

async function call(
  harness: Harness,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const client = await harness.connect();
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const NO_URLS = 'this server downloads no URLs (it was started with --no-urls / allowUrls: false)';
const manyUrls = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`u${i}_url`, 'https://a.test/']));

describe('many URL arguments on a server started with --no-urls', () => {
  it('300 of them: the reason once, five named, the rest counted', async () => {
    const result = await call(noUrls, 'ocr', { image_base64: 'aGk=', ...manyUrls(300) });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain(
      `unknown arguments \`u0_url\`, \`u1_url\`, \`u2_url\`, \`u3_url\`, \`u4_url\` and 295 more: ${NO_URLS}; send the file's bytes as image_base64`,
    );
    expect(text.split(NO_URLS)).toHaveLength(2);
    expect(text).not.toContain('u5_url');
    expect(text.length).toBeLessThan(600);
  });

  it('two of them: both named, the reason once', async () => {
    const result = await call(noUrls, 'transcribe', { image_url: 'x', audio_url: 'y' });
    const text = textOf(result);
    expect(text).toContain(`unknown arguments \`image_url\`, \`audio_url\`: ${NO_URLS}`);
    expect(text.split(NO_URLS)).toHaveLength(2);
  });

  it('URL arguments and other unknown ones: each kind said once', async () => {
    const result = await call(noUrls, 'ocr', { image_base64: 'aGk=', url: 'x', zzz: 1 });
    const text = textOf(result);
    expect(text).toContain(`unknown argument \`url\`: ${NO_URLS}`);
    expect(text).toContain('unknown argument `zzz` (the arguments are');
  });
});

describe('a URL argument the tool does not take, where URLs are allowed', () => {
  it('`imageUrl`: the closest argument named, no word of --no-urls', async () => {
    const result = await call(urls, 'ocr', { imageUrl: 'https://example.com/a.png' });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('unknown argument `imageUrl` — did you mean `image_url`?');
    expect(text).not.toContain('downloads no URLs');
    expect(text).not.toContain('--no-urls');
  });

  it('many `*_url` arguments: refused as unknown arguments, no word of --no-urls', async () => {
    const result = await call(urls, 'ocr', { image_base64: 'aGk=', ...manyUrls(7) });
    const text = textOf(result);
    expect(text).toContain('unknown argument');
    expect(text).not.toContain('downloads no URLs');
  });
});
