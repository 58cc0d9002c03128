import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../client/client';

// core README: an answer whose Content-Length is over `maxResponseBytes` fails with
// `response_too_large` naming it, before any of its body is read; one at the limit is read.
const LIMIT = 64 * 1024;
const ANSWER = JSON.stringify({ text: 'ok', target_language: 'uk' });

/**
 * A fetch answering `ANSWER` padded to `bytes` bytes, declared as such. The body is pulled only
 * when read (high-water mark 0): `body.pulls` counts the reads, `body.cancelled` its cancel.
 */
function declaring(bytes: number) {
  const body = { pulls: 0, cancelled: false };
  const fetch: typeof globalThis.fetch = async () => {
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          body.pulls++;
          controller.enqueue(new TextEncoder().encode(ANSWER.padEnd(bytes, ' ')));
          controller.close();
        },
        cancel() {
          body.cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const headers = { 'content-type': 'application/json', 'content-length': String(bytes) };
    return new Response(stream, { headers });
  };
  const client = createGatewayClient({
    baseURL: 'https://declared-length.test/v1',
    apiKey: 'k',
    fetch,
    maxRetries: 0,
    maxResponseBytes: LIMIT,
  });
  const translate = () =>
    client.translate({ input: 'hi', target_language: 'uk' }).catch((error: unknown) => error);
  return { body, translate };
}

describe('a declared Content-Length against maxResponseBytes', () => {
  it('one byte over the limit fails before the body is read, naming the Content-Length', async () => {
    const { body, translate } = declaring(LIMIT + 1);
    const error = await translate();
    expect(error).toMatchObject({ code: 'response_too_large', isRetryable: false });
    expect((error as Error).message).toContain(`Content-Length ${LIMIT + 1}`);
    expect(body).toEqual({ pulls: 0, cancelled: true });
  });

  it('exactly at the limit is read and answered', async () => {
    const { body, translate } = declaring(LIMIT);
    expect(await translate()).toMatchObject({ text: 'ok' });
    expect(body.pulls).toBeGreaterThan(0);
  });
});
