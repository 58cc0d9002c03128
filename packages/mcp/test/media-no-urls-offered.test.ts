/**
 * A server that downloads nothing (`allowUrls: false`, `--no-urls`) does not offer `image_url` /
 * `audio_url`: its media tools list only the ways it takes (as `files: false` leaves out
 * `*_path`), their descriptions name no URL, and a URL given is refused by the tool's input
 * before anything is read. Through the MCP SDK's Client against the emulator.
 */
import { describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

async function withServer(
  allowUrls: boolean,
  body: (client: Awaited<ReturnType<Harness['connect']>>, harness: Harness) => Promise<void>,
) {
  const harness = await startHarness({ server: { allowUrls } });
  try {
    await body(await harness.connect(), harness);
  } finally {
    await harness.close();
  }
}

describe('allowUrls: false', () => {
  it('ocr and transcribe offer no *_url and name none', async () => {
    await withServer(false, async (client) => {
      const { tools } = await client.listTools();
      for (const [name, kind] of [
        ['ocr', 'image'],
        ['transcribe', 'audio'],
      ] as const) {
        const tool = tools.find((listed) => listed.name === name)!;
        expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain(`${kind}_url`);
        expect(Object.keys(tool.inputSchema.properties ?? {})).toContain(`${kind}_base64`);
        expect(tool.description).not.toMatch(/URL/);
      }
    });
  });

  it('a URL given is refused by the input, nothing downloaded or sent', async () => {
    await withServer(false, async (client, harness) => {
      const result = await client.callTool({
        name: 'ocr',
        arguments: { image_url: 'https://example.com/a.png' },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('unknown argument `image_url`');
      expect(harness.gateway.emulator.counters.requests.ocr).toBe(0);
    });
  });

  it('with URLs allowed (the default) image_url is offered', async () => {
    await withServer(true, async (client) => {
      const { tools } = await client.listTools();
      const ocr = tools.find((listed) => listed.name === 'ocr')!;
      expect(Object.keys(ocr.inputSchema.properties ?? {})).toContain('image_url');
    });
  });
});
