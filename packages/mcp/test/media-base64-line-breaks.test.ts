/**
 * `image_base64` / `audio_base64` near the 23 MiB limit written with MIME line breaks (76
 * characters and CRLF): the limit is on the decoded bytes, so the text's length, longer than any
 * bare base64 of 23 MiB, is no reason to refuse it (rv-svc F1); over the limit, core's refusal
 * names the argument, the decoded size and the limit.
 */
import { LIMITS } from '@infergate/core';
import { pngWithText } from '@infergate/emulator/fixtures';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectedHarnessOfFile, textOf, wire } from './harness';

const { harness, client } = connectedHarnessOfFile();
let recorded = 0;
beforeEach(() => {
  harness().gateway.emulator.resetCounters();
  recorded = wire.length;
});
// (The harness's wire keeps every message for the worker's life: these 33 MB calls would stay.)
afterEach(() => {
  wire.length = recorded;
});

const LIMIT = LIMITS.ocrMaxImageBytes;
// A call of ~23 MiB is about a second of CPU, many on a loaded machine (media-base64-limit.test.ts).
const CALL_TIMEOUT_MS = 120_000;
/** A PNG of `bytes` bytes as MIME base64: lines of 76 characters, CRLF between them. */
const mimeImage = (bytes: number) => {
  const image = Buffer.alloc(bytes);
  image.set(pngWithText('scan'));
  return image.toString('base64').replace(/.{76}/g, '$&\r\n');
};
const ocr = (image_base64: string) =>
  client().callTool({ name: 'ocr', arguments: { image_base64 } }, undefined, {
    timeout: CALL_TIMEOUT_MS,
  });

describe('image_base64 with line breaks', { timeout: 2 * CALL_TIMEOUT_MS + 30_000 }, () => {
  it('takes 64 KiB under 23 MiB though the text is longer than 23 MiB of bare base64', async () => {
    const image = mimeImage(LIMIT - 65_536);
    expect(image.length).toBeGreaterThan(Math.ceil(LIMIT / 3) * 4 + 512);
    const result = await ocr(image);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(harness().gateway.emulator.counters.requests.ocr).toBe(1);
  });

  it('refuses a byte over by the decoded size, naming the argument, the size and the limit', async () => {
    const result = await ocr(mimeImage(LIMIT + 1));
    expect(result.structuredContent).toMatchObject({
      error: {
        code: 'invalid_request_error',
        field: 'image_base64',
        message: `image_base64: decodes to ${LIMIT + 1} bytes; the limit is ${LIMIT} bytes (23 MiB)`,
      },
    });
    expect(harness().gateway.emulator.counters.requests.ocr).toBe(0);
  });
});
