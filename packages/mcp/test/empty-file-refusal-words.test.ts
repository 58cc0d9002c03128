/**
 * An empty file given by path is refused in words that read as a sentence for either tool (the
 * limit's words: "the gateway takes images of …"). Through the MCP SDK's Client against the emulator.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectedHarnessOfFile } from './harness';

const { harness, client } = connectedHarnessOfFile();

describe('an empty file given by path', () => {
  it.each([
    ['ocr', 'image_path', 'images'],
    ['transcribe', 'audio_path', 'audio files'],
  ])('%s: refused naming what the gateway takes', async (name, argument, what) => {
    const path = join(harness().root, `empty-${name}.bin`);
    await writeFile(path, new Uint8Array());
    const result = (await client().callTool({
      name,
      arguments: { [argument]: path },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: {
        code: 'file_refused',
        message: `${path} is empty; the gateway takes ${what} of at least 1 byte`,
      },
    });
  });
});
