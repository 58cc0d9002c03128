/**
 * A server that downloads nothing (`allowUrls: false`, `--no-urls`) refuses a URL given to a media
 * tool saying why, and what to send instead: not only as an unknown argument among the ones taken,
 * which leaves a model that read of `image_url` elsewhere guessing. Through the MCP SDK's Client
 * against the emulator.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ server: { allowUrls: false } });
}, 120_000);
afterAll(async () => {
  await harness.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const client = await harness.connect();
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const NO_URLS = 'this server downloads no URLs (it was started with --no-urls / allowUrls: false)';

describe('a URL given to a server started with --no-urls', () => {
  it('ocr image_url: the refusal says the server takes no URLs and names base64 and path', async () => {
    const result = await call('ocr', { image_url: 'https://example.com/a.png' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      `unknown argument \`image_url\`: ${NO_URLS}; send the file's bytes as image_base64, or its path as image_path (under the allowed roots)`,
    );
    expect(harness.gateway.emulator.counters.requests.ocr ?? 0).toBe(0);
  });

  it('transcribe audio_url: the same, for audio', async () => {
    const result = await call('transcribe', { audio_url: 'https://example.com/a.wav' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      `unknown argument \`audio_url\`: ${NO_URLS}; send the file's bytes as audio_base64`,
    );
  });

  it('any argument named for a URL (`url`, `imageUrl`) gets the same hint', async () => {
    for (const name of ['url', 'imageUrl']) {
      const result = await call('ocr', { [name]: 'https://example.com/a.png' });
      expect(textOf(result)).toContain(`unknown argument \`${name}\`: ${NO_URLS}`);
    }
  });

  it('another unknown argument is refused as before', async () => {
    const result = await call('ocr', { image_base64: 'aGk=', zzz: 1 });
    expect(textOf(result)).toContain('unknown argument `zzz` (the arguments are');
    expect(textOf(result)).not.toContain('--no-urls');
  });
});
