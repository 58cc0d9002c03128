/**
 * OCR and JSON transcription read their JSON body as every JSON endpoint of the emulator does
 * (chat, embeddings, translations): with `application/json`, a `+json` type, or no Content-Type.
 * The spec asks only for JSON there, no stricter than elsewhere. A form to OCR is still refused.
 */
import { describe, expect, it } from 'vitest';
import { wavWithSpeech } from '../src/fixtures';
import { createEmulator } from '../src/index';
import { base64, call, errorBodyOf } from './helpers';

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

function raw(path: string, body: unknown, type: string | undefined) {
  return call(createEmulator(), path, {
    rawBody: new Blob([JSON.stringify(body)]),
    headers: type === undefined ? {} : { 'content-type': type },
  });
}

describe.each([
  ['no Content-Type', undefined],
  ['a +json type', 'application/vnd.api+json'],
])('a JSON service body with %s', (_, type) => {
  it('POST /ocr reads it', async () => {
    const response = await raw('/ocr', { image_base64: base64(png) }, type);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { text: string }).text).toContain('PNG');
  });

  it('POST /audio/transcriptions reads it', async () => {
    const audio = base64(wavWithSpeech('hello there'));
    const response = await raw('/audio/transcriptions', { audio_base64: audio }, type);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { text: string }).text).toBe('hello there');
  });
});

describe('POST /ocr', () => {
  it('still refuses a form, naming the Content-Type', async () => {
    const form = new FormData();
    form.set('file', new Blob([png]), 'a.png');
    const error = await errorBodyOf(await call(createEmulator(), '/ocr', { rawBody: form }));
    expect(error).toMatchObject({ status: 400, param: 'content-type' });
  });
});
