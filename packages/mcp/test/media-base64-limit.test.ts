/**
 * `image_base64` / `audio_base64` at the 23 MiB limit: a `data:` URL prefix is accepted (the
 * schema's length leaves space for it), and the limit is checked on the decoded bytes, the refusal
 * naming the argument, the size and the limit.
 */
import { LIMITS } from '@infergate/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

let harness: Harness;
let client: Client;
beforeAll(async () => {
  harness = await startHarness();
  client = await harness.connect();
});
afterAll(() => harness.close());
beforeEach(() => harness.gateway.emulator.resetCounters());

const LIMIT = LIMITS.ocrMaxImageBytes;
const base64Of = (bytes: number) => Buffer.alloc(bytes, 65).toString('base64');
const ocr = (image_base64: string) => client.callTool({ name: 'ocr', arguments: { image_base64 } });

describe('image_base64 at the limit', () => {
  it('takes 23 MiB with a data: URL prefix, as without it', async () => {
    for (const image of [base64Of(LIMIT), `data:image/png;base64,${base64Of(LIMIT)}`]) {
      const result = await ocr(image);
      expect(result.isError, textOf(result)).toBeFalsy();
    }
    expect(harness.gateway.emulator.counters.requests.ocr).toBe(2);
  });

  it('refuses a byte over from the decoded size, naming the argument, the size and the limit', async () => {
    for (const image of [base64Of(LIMIT + 1), `data:image/png;base64,${base64Of(LIMIT + 1)}`]) {
      const result = await ocr(image);
      expect(result.structuredContent).toMatchObject({
        error: {
          code: 'invalid_request_error',
          field: 'image_base64',
          message: `image_base64: decodes to ${LIMIT + 1} bytes; the limit is ${LIMIT} bytes (23 MiB)`,
        },
      });
    }
    expect(harness.gateway.emulator.counters.requests.ocr).toBe(0);
  });
});
