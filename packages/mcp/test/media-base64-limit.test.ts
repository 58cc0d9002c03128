/**
 * `image_base64` / `audio_base64` at the 23 MiB limit: a `data:` URL prefix is accepted, and MIME
 * line breaks (76 characters and CRLF) too, though the text is then longer than any bare base64 of
 * 23 MiB (rv-svc F1): the limit is checked on the decoded bytes, the refusal naming the argument,
 * the size and the limit.
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
// (The harness's wire keeps every message for the worker's life, and other files scan it: these
// tests' four 31 MB calls would stay there.)
afterEach(() => {
  wire.length = recorded;
});

const LIMIT = LIMITS.ocrMaxImageBytes;
// A 23 MiB call is ~1 s of CPU (the emulator's decode, core's base64 check and JSON body) and took
// 22 s on a loaded machine: each call gets 120 s (the SDK's default is 60 s), each test both calls'.
const CALL_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = 2 * CALL_TIMEOUT_MS + 30_000;
const base64Of = (bytes: number) => Buffer.alloc(bytes, 65).toString('base64');
/** The same base64, bare and as a data: URL (encoded once: 31 MB each). */
const bareAndDataUrl = (bytes: number) => {
  const base64 = base64Of(bytes);
  return [base64, `data:image/png;base64,${base64}`];
};
/** A PNG of `bytes` bytes as MIME base64: lines of 76 characters, CRLF between them. */
const mimeImage = (bytes: number) => {
  const image = Buffer.alloc(bytes);
  image.set(pngWithText('scan'));
  return image.toString('base64').replace(/.{76}/g, '$&\r\n');
};
/** The refusal of an image one byte over the limit: by its decoded size, before any request. */
const OVER_THE_LIMIT = {
  error: {
    code: 'invalid_request_error',
    field: 'image_base64',
    message: `image_base64: decodes to ${LIMIT + 1} bytes; the limit is ${LIMIT} bytes (23 MiB)`,
  },
};
const ocr = (image_base64: string) =>
  client().callTool({ name: 'ocr', arguments: { image_base64 } }, undefined, {
    timeout: CALL_TIMEOUT_MS,
  });

describe('image_base64 at the limit', { timeout: TEST_TIMEOUT_MS }, () => {
  it('takes 23 MiB with a data: URL prefix, as without it', async () => {
    for (const image of bareAndDataUrl(LIMIT)) {
      const result = await ocr(image);
      expect(result.isError, textOf(result)).toBeFalsy();
    }
    expect(harness().gateway.emulator.counters.requests.ocr).toBe(2);
  });

  it('refuses a byte over from the decoded size, naming the argument, the size and the limit', async () => {
    for (const image of bareAndDataUrl(LIMIT + 1)) {
      const result = await ocr(image);
      expect(result.structuredContent).toMatchObject(OVER_THE_LIMIT);
    }
    expect(harness().gateway.emulator.counters.requests.ocr).toBe(0);
  });
});

describe('image_base64 with line breaks', { timeout: TEST_TIMEOUT_MS }, () => {
  it('takes 64 KiB under 23 MiB though the text is longer than 23 MiB of bare base64', async () => {
    const image = mimeImage(LIMIT - 65_536);
    expect(image.length).toBeGreaterThan(Math.ceil(LIMIT / 3) * 4 + 512);
    const result = await ocr(image);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(harness().gateway.emulator.counters.requests.ocr).toBe(1);
  });

  it('refuses a byte over by the decoded size, naming the argument, the size and the limit', async () => {
    const result = await ocr(mimeImage(LIMIT + 1));
    expect(result.structuredContent).toMatchObject(OVER_THE_LIMIT);
    expect(harness().gateway.emulator.counters.requests.ocr).toBe(0);
  });
});
