// docs/gateway-protocol.md §8 (OCR's 23 MiB limit): an image a model passes to the ocr tool as a
// `data:` URL of exactly 23 MiB, or as MIME base64 with line breaks, is within the limit, which is
// on the decoded bytes (core's check): generateText runs the tool rather than handing the model a
// refusal in characters (rv-svc F1). A byte over is refused naming the size and the limit.
// (The model is the AI SDK's own test model, so that it can call the tool with a 32 MB argument;
// the tool runs against the emulated gateway.)
import { LIMITS } from '@infergate/core';
import { pngWithText } from '@infergate/emulator/fixtures';
import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulator, gateway } = await providersOnMsw({});

/** A PNG of `bytes` bytes as base64. */
const pngBase64 = (bytes: number) => {
  const image = Buffer.alloc(bytes);
  image.set(pngWithText('scan'));
  return image.toString('base64');
};

/** A model that calls `ocr` with this image. */
const callingOcrWith = (image: string) =>
  new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [
        {
          type: 'tool-call',
          toolCallId: 'call-1',
          toolName: 'ocr',
          input: JSON.stringify({ image }),
        },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  });

const runOcr = (image: string) =>
  generateText({
    model: callingOcrWith(image),
    tools: { ocr: gateway().tools.ocr() },
    prompt: 'Read the scan',
  });

describe('the ocr tool in generateText, near the 23 MiB limit', { timeout: 120_000 }, () => {
  it('runs on a data: URL of exactly 23 MiB', async () => {
    const result = await runOcr(`data:image/png;base64,${pngBase64(LIMITS.ocrMaxImageBytes)}`);
    expect(result.content.filter((part) => part.type === 'tool-error')).toEqual([]);
    expect(JSON.stringify(result.toolResults[0]?.output)).toContain('scan');
    expect(emulator.counters.requests.ocr).toBe(1);
  });

  it('runs on MIME base64 (76 characters a line) of 64 KiB under the limit', async () => {
    const image = pngBase64(LIMITS.ocrMaxImageBytes - 65_536).replace(/.{76}/g, '$&\r\n');
    const result = await runOcr(image);
    expect(result.content.filter((part) => part.type === 'tool-error')).toEqual([]);
    expect(JSON.stringify(result.toolResults[0]?.output)).toContain('scan');
    expect(emulator.counters.requests.ocr).toBe(1);
  });

  it('refuses a byte over, by the decoded size, naming the size and the limit', async () => {
    const result = await runOcr(`data:image/png;base64,${pngBase64(LIMITS.ocrMaxImageBytes + 1)}`);
    const error = result.content.find((part) => part.type === 'tool-error');
    expect(String((error as { error?: unknown } | undefined)?.error).slice(-200)).toContain(
      `image: decodes to ${LIMITS.ocrMaxImageBytes + 1} bytes; the limit is ${LIMITS.ocrMaxImageBytes} bytes (23 MiB)`,
    );
    expect(emulator.counters.requests.ocr).toBe(0);
  });
});
