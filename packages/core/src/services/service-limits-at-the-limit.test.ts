import { describe, expect, it } from 'vitest';
import { encodeBase64 } from '../encoding/base64-bytes';
import { isGatewayError } from '../errors/errors';
import { LIMITS } from '../protocol/limits';
import { validateEmbeddingsRequest, validateForEngine } from './validate-embeddings';
import { validateOcrRequest } from './validate-ocr';
import { validateTranscriptionRequest } from './validate-transcription';

// The spec's input limits (§8) are inclusive: an input of exactly the limit is sent, one byte more
// is refused before sending (core README). Each limit at both sides of its edge.
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const WAV = new Uint8Array([
  0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45, 1, 2, 3, 4,
]);

/** `bytes` bytes beginning with `header`. */
function sized(header: Uint8Array, bytes: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(bytes);
  data.set(header);
  return data;
}

/** The message of `run`'s refusal, or `accepted`. */
async function outcome(run: () => unknown): Promise<string> {
  try {
    await run();
    return 'accepted';
  } catch (error) {
    if (isGatewayError(error)) return error.message;
    throw error;
  }
}

describe('input limits, at the limit and one byte over', () => {
  it('OCR: an image of exactly 23 MiB is sent, as bytes or base64; one byte more is refused', async () => {
    const limit = LIMITS.ocrMaxImageBytes;
    expect(limit).toBe(23 * 1024 * 1024);
    const atLimit = sized(PNG, limit);
    expect(await outcome(() => validateOcrRequest({ image: atLimit }))).toBe('accepted');
    expect(await outcome(() => validateOcrRequest({ image: encodeBase64(atLimit) }))).toBe(
      'accepted',
    );
    const over = sized(PNG, limit + 1);
    const refused = `image: decodes to ${limit + 1} bytes; the limit is ${limit} bytes (23 MiB)`;
    expect(await outcome(() => validateOcrRequest({ image: over }))).toBe(refused);
    expect(await outcome(() => validateOcrRequest({ image: encodeBase64(over) }))).toBe(refused);
  });

  it('transcription: audio of exactly 23 MiB is sent; one byte more is refused', async () => {
    const limit = LIMITS.audioMaxBytes;
    expect(limit).toBe(23 * 1024 * 1024);
    const atLimit = sized(WAV, limit);
    expect(await outcome(() => validateTranscriptionRequest({ audio: atLimit }))).toBe('accepted');
    expect(await outcome(() => validateTranscriptionRequest({ audio: new Blob([atLimit]) }))).toBe(
      'accepted',
    );
    expect(
      await outcome(() => validateTranscriptionRequest({ audio: sized(WAV, limit + 1) })),
    ).toBe(`audio: is ${limit + 1} bytes; the limit is ${limit} bytes (23 MiB)`);
  });

  it('multilingual embeddings: a text of exactly 32 768 UTF-8 bytes is sent; one byte more is refused', async () => {
    const limit = LIMITS.multilingualMaxTextBytes;
    expect(limit).toBe(32_768);
    const engine = { id: 'multilingual-e5-base' };
    const check = (text: string) => () =>
      validateForEngine({ input: [text] }, validateEmbeddingsRequest({ input: [text] }), engine);
    // Bytes, not characters: 'é' is two.
    for (const text of ['a'.repeat(limit), 'é'.repeat(limit / 2)]) {
      expect(await outcome(check(text))).toBe('accepted');
    }
    for (const text of ['a'.repeat(limit + 1), `${'é'.repeat(limit / 2)}a`]) {
      const refused = await outcome(check(text));
      expect(refused).toContain(`${limit + 1} bytes`);
      expect(refused).toContain(`at most ${limit} bytes`);
    }
  });
});
