/**
 * `transcribe`'s `language` is checked by core's one rule, core's own `transcribe` check: a spoken
 * language code the spec gives no pattern or length, so only a blank one is refused (before
 * sending, in core's words, naming the value) and any other is sent as given. No cap of the
 * server's own. (`""` is no language, as for every optional argument.) Through the MCP SDK's Client against the emulator.
 */
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectedHarnessOfFile } from './harness';

const { harness, client } = connectedHarnessOfFile();
const audio_base64 = Buffer.from(wavWithSpeech('hello there')).toString('base64');
const transcribe = async (language: string) =>
  (await client().callTool({
    name: 'transcribe',
    arguments: { audio_base64, language },
  })) as CallToolResult;

describe("transcribe's language", () => {
  it('is sent as given past 35 characters (the spec gives no cap)', async () => {
    const before = harness().gateway.emulator.counters.requests.transcriptions;
    const result = await transcribe('x'.repeat(36));
    expect(result.isError).toBeFalsy();
    expect(harness().gateway.emulator.counters.requests.transcriptions).toBe(before + 1);
  });

  it.each([
    ['  ', '"  "'],
    ['\t', '"\\t"'],
  ])('%j is refused before sending, in core’s words', async (language, quoted) => {
    const before = harness().gateway.emulator.counters.requests.transcriptions;
    const result = await transcribe(language);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: {
        code: 'invalid_request_error',
        field: 'language',
        message: `language: is ${quoted}; must be a non-blank language code`,
      },
    });
    expect(harness().gateway.emulator.counters.requests.transcriptions).toBe(before);
  });
});
