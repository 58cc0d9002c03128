import { describe, expect, it } from 'vitest';
import { emulate } from '../src/testing/index';
import { call, errorBodyOf, type Json } from './helpers';

// A service's `capacity` (and an embedding engine's) was listed by GET /capabilities but never
// enforced: three OCR requests ran at once on capacity 1, `inflight` 3. One past it is now refused
// as a chat model past its capacity is: 429 `model_busy` with `Retry-After`.

const OCR = { image_base64: 'aGVsbG8=' };

describe('a service at its capacity', () => {
  it('refuses one more request with 429 model_busy and Retry-After', async () => {
    const gateway = await emulate({
      scenario: { services: { ocr: { capacity: 1 } }, retryAfterSeconds: 3 },
    });
    const release = gateway.hold('ocr');
    const first = call(gateway.emulator, '/ocr', { body: OCR });
    await gateway.untilHeld(1);
    const second = await call(gateway.emulator, '/ocr', { body: OCR });
    expect(second.headers.get('retry-after')).toBe('3');
    expect(await errorBodyOf(second)).toMatchObject({ status: 429, code: 'model_busy' });
    const capabilities = (await (await call(gateway.emulator, '/capabilities')).json()) as Json;
    const ocr = capabilities.data.find((entry: Json) => entry.id === 'ocr');
    expect(ocr).toMatchObject({ capacity: 1, inflight: 1 });
    release();
    expect((await first).status).toBe(200);
    // The slot is back: the next one is answered.
    expect((await call(gateway.emulator, '/ocr', { body: OCR })).status).toBe(200);
    await gateway.close();
  });

  it("refuses one more request on an embedding engine at the engine's capacity", async () => {
    const gateway = await emulate({
      scenario: { services: { embeddings: { engines: { 'all-minilm-l6-v2': { capacity: 1 } } } } },
    });
    const body = { input: 'x', model: 'all-minilm-l6-v2' };
    const release = gateway.hold('embeddings');
    const first = call(gateway.emulator, '/embeddings', { body });
    await gateway.untilHeld(1);
    const second = await call(gateway.emulator, '/embeddings', { body });
    expect(second.headers.get('retry-after')).toBe('1');
    const error = await errorBodyOf(second);
    expect(error).toMatchObject({ status: 429, code: 'model_busy' });
    expect(error.message).toMatch(/all-minilm-l6-v2/);
    release();
    expect((await first).status).toBe(200);
    await gateway.close();
  });
});
