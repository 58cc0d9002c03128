import { describe, expect, it } from 'vitest';
import { wavWithoutSpeech, wavWithSpeech } from '../src/fixtures';
import { createEmulator, DEFAULT_KEYS } from '../src/index';
import { base64, call, errorBodyOf, type Json } from './helpers';

const emulator = createEmulator();

function post(path: string, body: unknown, key?: string) {
  return call(emulator, path, { body, key });
}

async function ok(response: Response): Promise<Json> {
  expect(response.status).toBe(200);
  return response.json();
}

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, value, i) => sum + value * b[i]!, 0);
}

describe('POST /embeddings', () => {
  const engine = 'all-minilm-l6-v2';

  it('returns one unit-length 384-dimension vector per text from the English engine', async () => {
    const body = await ok(await post('/embeddings', { model: engine, input: ['a cat', 'a dog'] }));
    expect(body).toMatchObject({ object: 'list', model: engine });
    expect(body.data.map((d: Json) => [d.object, d.index])).toEqual([
      ['embedding', 0],
      ['embedding', 1],
    ]);
    for (const { embedding } of body.data) {
      expect(embedding).toHaveLength(384);
      expect(Math.hypot(...embedding)).toBeCloseTo(1, 10);
    }
  });

  it('is deterministic, and texts sharing words are closer than texts that share none', async () => {
    const input = [
      'the quick brown fox',
      'a quick brown fox jumps',
      'tax law in Norway',
      'the quick brown fox',
    ];
    const body = await ok(await post('/embeddings', { model: engine, input }));
    const [a, b, c, d] = body.data.map((x: Json) => x.embedding as number[]);
    expect(d).toEqual(a);
    expect(cosine(a, b)).toBeGreaterThan(0.5);
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.3);
  });

  it('accepts a single string', async () => {
    const body = await ok(await post('/embeddings', { model: engine, input: 'one' }));
    expect(body.data).toHaveLength(1);
  });

  it('gives the multilingual engine 768 dimensions by default and 128/256/512 by `dimensions`', async () => {
    const model = 'multilingual-e5-base';
    expect(
      (await ok(await post('/embeddings', { model, input: 'x' }))).data[0].embedding,
    ).toHaveLength(768);
    for (const dimensions of [128, 256, 512, 768]) {
      const body = await ok(await post('/embeddings', { model, input: 'x', dimensions }));
      expect(body.data[0].embedding).toHaveLength(dimensions);
    }
    const error = await errorBodyOf(
      await post('/embeddings', { model, input: 'x', dimensions: 300 }),
    );
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request_error',
      param: 'dimensions',
    });
    const english = await errorBodyOf(
      await post('/embeddings', { model: engine, input: 'x', dimensions: 768 }),
    );
    expect(english.param).toBe('dimensions');
  });

  it('honours input_type on the multilingual engine (query differs slightly from document)', async () => {
    const model = 'multilingual-e5-base';
    const doc = await ok(await post('/embeddings', { model, input: 'solar panels' }));
    const query = await ok(
      await post('/embeddings', { model, input: 'solar panels', input_type: 'query' }),
    );
    const a = doc.data[0].embedding;
    const b = query.data[0].embedding;
    expect(b).not.toEqual(a);
    expect(cosine(a, b)).toBeGreaterThan(0.95);
    const bad = await errorBodyOf(
      await post('/embeddings', { model, input: 'x', input_type: 'search' }),
    );
    expect(bad.param).toBe('input_type');
  });

  it('requires `model` when more than one engine is available, listing the ids', async () => {
    const error = await errorBodyOf(await post('/embeddings', { input: 'x' }));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request_error', param: 'model' });
    expect(error.message).toContain('multilingual-e5-base');
    expect(error.message).toContain(engine);
  });

  it('uses the only engine when just one is available', async () => {
    const single = createEmulator({
      services: { embeddings: { engines: { 'multilingual-e5-base': { available: false } } } },
    });
    const body = await ok(await call(single, '/embeddings', { body: { input: 'x' } }));
    expect(body.model).toBe(engine);
    const gone = await errorBodyOf(
      await call(single, '/embeddings', { body: { model: 'multilingual-e5-base', input: 'x' } }),
    );
    expect(gone).toMatchObject({ status: 503, code: 'provider_unavailable' });
  });

  it('refuses an unknown engine with 404 model_not_found', async () => {
    const error = await errorBodyOf(
      await post('/embeddings', { model: 'text-embedding-3', input: 'x' }),
    );
    expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('finds no engine named constructor', async () => {
    const error = await errorBodyOf(
      await post('/embeddings', { model: 'constructor', input: 'x' }),
    );
    expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it.each([
    ['input', {}, /required/],
    ['input', { input: [] }, /0 items.*between 1 and 64/],
    ['input', { input: Array.from({ length: 65 }, () => 'x') }, /65 items.*between 1 and 64/],
    ['input[1]', { input: ['a', ''] }, /empty.*at least 1/],
    ['input[0]', { input: [5] }, /string/],
    ['input', { input: ['a'.repeat(40_000), 'b'.repeat(30_000)] }, /70000 bytes.*65536/],
  ])('refuses a bad %s', async (param, body, message) => {
    const error = await errorBodyOf(await post('/embeddings', { model: engine, ...body }));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request_error', param });
    expect(error.message).toMatch(message);
  });

  it('limits a multilingual text to 32 KB', async () => {
    const model = 'multilingual-e5-base';
    const error = await errorBodyOf(
      await post('/embeddings', { model, input: ['ok', 'é'.repeat(16_385)] }),
    );
    expect(error).toMatchObject({ param: 'input[1]' });
    expect(error.message).toMatch(/32770 bytes.*32768/);
    expect((await post('/embeddings', { model: engine, input: 'é'.repeat(16_385) })).status).toBe(
      200,
    );
  });

  it('answers 503 provider_unavailable when the service has no node', async () => {
    const down = createEmulator({ services: { embeddings: { availableNodes: 0 } } });
    const response = await call(down, '/embeddings', { body: { model: engine, input: 'x' } });
    expect(await errorBodyOf(response)).toMatchObject({
      status: 503,
      code: 'provider_unavailable',
    });
  });
});

describe('POST /translations', () => {
  it('translates deterministically and detects the source language', async () => {
    const body = await ok(
      await post('/translations', { input: 'Привіт світ', target_language: 'en' }),
    );
    expect(body).toEqual({
      object: 'translation',
      text: '[en] Привіт світ',
      source_language: 'uk',
      target_language: 'en',
    });
    const given = await ok(
      await post('/translations', {
        input: 'hello',
        target_language: 'pt-BR',
        source_language: 'en',
        model: 'x',
      }),
    );
    expect(given).toMatchObject({ text: '[pt-BR] hello', source_language: 'en' });
  });

  it('works with any valid key, shielded or limited', async () => {
    for (const key of [DEFAULT_KEYS.shielded, DEFAULT_KEYS.limited]) {
      expect(
        (await post('/translations', { input: 'hi', target_language: 'de' }, key)).status,
      ).toBe(200);
    }
  });

  it.each([
    ['extra', { input: 'hi', target_language: 'de', extra: 1 }, /not allowed/],
    ['input', { target_language: 'de' }, /required/],
    ['input', { input: '', target_language: 'de' }, /at least 1/],
    ['input', { input: 'é'.repeat(2049), target_language: 'de' }, /4098 bytes.*4096/],
    ['target_language', { input: 'hi' }, /language code/],
    ['target_language', { input: 'hi', target_language: 'german' }, /language code/],
    [
      'source_language',
      { input: 'hi', target_language: 'de', source_language: 'e' },
      /language code/,
    ],
  ])('refuses a bad %s', async (param, body, message) => {
    const error = await errorBodyOf(await post('/translations', body));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request_error', param });
    expect(error.message).toMatch(message);
  });

  it('accepts exactly 4096 bytes', async () => {
    expect(
      (await post('/translations', { input: 'a'.repeat(4096), target_language: 'de' })).status,
    ).toBe(200);
  });

  it('answers 503 when no translation node is available', async () => {
    const down = createEmulator({ services: { translation: { availableNodes: 0 } } });
    const response = await call(down, '/translations', {
      body: { input: 'hi', target_language: 'de' },
    });
    expect(await errorBodyOf(response)).toMatchObject({
      status: 503,
      code: 'provider_unavailable',
    });
  });
});

describe('POST /ocr', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

  it('reads the text after a TEXT: marker with high confidence', async () => {
    const image = new Uint8Array([
      ...png,
      ...new TextEncoder().encode('TEXTTEXT:Рахунок № 42\u0000junk'),
    ]);
    const body = await ok(await post('/ocr', { image_base64: base64(image), model: 'ignored' }));
    expect(body).toMatchObject({ text: 'Рахунок № 42', confidence: 0.98, model: 'emulator-ocr' });
  });

  it('describes an image without a marker', async () => {
    const body = await ok(await post('/ocr', { image_base64: base64(png) }));
    expect(body.text).toBe('[PNG image, 11 bytes]');
    expect(body.confidence).toBeGreaterThanOrEqual(0);
    expect(body.confidence).toBeLessThanOrEqual(1);
  });

  it.each([
    [{}, /required/],
    [{ image_base64: '' }, /0 bytes.*at least 1 byte/],
    [{ image_base64: 'not base64!' }, /not valid base64/],
    [{ image_base64: 'data:image/png;base64,AAAA' }, /not valid base64/],
    // A multiple of 4 long, so only the alphabet and the padding's place refuse them.
    [{ image_base64: 'AB*D' }, /not valid base64/],
    [{ image_base64: 'AB=D' }, /not valid base64/],
    [{ image_base64: 'AB==AB==' }, /not valid base64/],
    [{ image_base64: 'ÀBCD' }, /not valid base64/],
  ])('refuses %j', async (body, message) => {
    const error = await errorBodyOf(await post('/ocr', body));
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request_error',
      param: 'image_base64',
    });
    expect(error.message).toMatch(message);
  });

  it('refuses images over 23 MiB from their base64 length', async () => {
    const huge = 'A'.repeat(Math.ceil((23 * 1024 * 1024 + 3) / 3) * 4);
    const error = await errorBodyOf(await post('/ocr', { image_base64: huge }));
    expect(error.message).toMatch(/24117252 bytes.*24117248/);
  });

  it('takes JSON only', async () => {
    const form = new FormData();
    form.set('file', new Blob([png]), 'a.png');
    const error = await errorBodyOf(await call(emulator, '/ocr', { rawBody: form }));
    expect(error).toMatchObject({ status: 400, param: 'content-type' });
  });
});

describe('POST /audio/transcriptions', () => {
  function multipart(
    file: Uint8Array<ArrayBuffer>,
    fields: Record<string, string> = {},
    name = 'a.wav',
  ) {
    const form = new FormData();
    form.set('file', new Blob([file]), name);
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    return call(emulator, '/audio/transcriptions', { rawBody: form });
  }

  it('transcribes a multipart WAV with its duration from the header', async () => {
    const body = await ok(await multipart(wavWithoutSpeech({ seconds: 1.5 })));
    expect(body).toEqual({ text: '[WAV audio, 1.5 s]', language: 'en', duration: 1.5 });
  });

  it('uses the text after a SPEECH: marker and detects its language', async () => {
    const body = await ok(await multipart(wavWithSpeech('Добрий день', { seconds: 0.25 })));
    expect(body).toMatchObject({ text: 'Добрий день', language: 'uk', duration: 0.25 });
  });

  it('answers text/plain when response_format is text', async () => {
    const response = await multipart(wavWithSpeech('hello', { seconds: 0.1 }), {
      response_format: 'text',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(await response.text()).toBe('hello');
  });

  it('translates into English when translate is true, and takes a given language', async () => {
    const body = await ok(
      await multipart(wavWithSpeech('Добрий день', { seconds: 0.1 }), { translate: 'true' }),
    );
    expect(body.text).toBe('[en] Добрий день');
    const given = await ok(
      await multipart(wavWithSpeech('hola', { seconds: 0.1 }), { language: 'es' }),
    );
    expect(given.language).toBe('es');
  });

  it('tells MP3 and FLAC apart by their magic bytes', async () => {
    const mp3 = new Uint8Array(16_000);
    mp3.set([0x49, 0x44, 0x33]);
    expect((await ok(await multipart(mp3, {}, 'a.mp3'))).text).toBe('[MP3 audio, 1 s]');
    const flac = new Uint8Array(42);
    flac.set([0x66, 0x4c, 0x61, 0x43, 0x80, 0, 0, 34]);
    // STREAMINFO: sample rate 16000 Hz (20 bits at byte 18), 32000 total samples.
    const info = new DataView(flac.buffer);
    info.setUint32(18, (16000 << 12) >>> 0);
    info.setUint32(22, 32000);
    expect(await ok(await multipart(flac, {}, 'a.flac'))).toMatchObject({ duration: 2 });
  });

  it('accepts JSON with audio_base64', async () => {
    const response = await call(emulator, '/audio/transcriptions', {
      body: {
        audio_base64: base64(wavWithSpeech('json works', { seconds: 0.5 })),
        filename: 'a.wav',
        mime_type: 'audio/wav',
        translate: false,
        response_format: 'json',
      },
    });
    expect(await ok(response)).toMatchObject({ text: 'json works', duration: 0.5 });
  });

  describe('the 23 MiB audio limit (docs/gateway-protocol.md §9)', () => {
    const LIMIT = 23 * 1024 * 1024;
    /** FLAC bytes of `size` bytes: magic and a STREAMINFO of 16 kHz, 16 000 samples (1 s). */
    function flacOf(size: number): Uint8Array<ArrayBuffer> {
      const flac = new Uint8Array(size);
      flac.set([0x66, 0x4c, 0x61, 0x43, 0x80, 0, 0, 34]);
      const info = new DataView(flac.buffer);
      info.setUint32(18, (16000 << 12) >>> 0);
      info.setUint32(22, 16000);
      return flac;
    }

    it('takes a multipart file of exactly 23 MiB', async () => {
      expect(await ok(await multipart(flacOf(LIMIT), {}, 'a.flac'))).toMatchObject({
        text: '[FLAC audio, 1 s]',
      });
    });

    it('refuses a multipart file of 23 MiB + 1 byte naming file', async () => {
      const error = await errorBodyOf(await multipart(flacOf(LIMIT + 1), {}, 'a.flac'));
      expect(error).toMatchObject({ status: 400, code: 'invalid_request_error', param: 'file' });
      expect(error.message).toContain(`${LIMIT + 1} bytes`);
    });

    it('takes audio_base64 of exactly 23 MiB and refuses 23 MiB + 1 byte', async () => {
      const exact = await call(emulator, '/audio/transcriptions', {
        body: { audio_base64: base64(flacOf(LIMIT)) },
      });
      expect(await ok(exact)).toMatchObject({ text: '[FLAC audio, 1 s]' });
      const over = await errorBodyOf(
        await call(emulator, '/audio/transcriptions', {
          body: { audio_base64: base64(flacOf(LIMIT + 1)) },
        }),
      );
      expect(over).toMatchObject({
        status: 400,
        code: 'invalid_request_error',
        param: 'audio_base64',
      });
      expect(over.message).toContain(`${LIMIT + 1} bytes`);
    });
  });

  it('refuses other formats with 400 invalid_request_error', async () => {
    const error = await errorBodyOf(
      await multipart(new Uint8Array(new TextEncoder().encode('OggS fake')), {}, 'a.ogg'),
    );
    expect(error).toMatchObject({ status: 400, code: 'invalid_request_error', param: 'file' });
    const json = await errorBodyOf(
      await call(emulator, '/audio/transcriptions', {
        body: { audio_base64: base64(new Uint8Array([1, 2, 3])) },
      }),
    );
    expect(json.param).toBe('audio_base64');
  });

  it.each([
    ['response_format', { response_format: 'srt' }],
    ['translate', { translate: 'yes' }],
  ])('refuses a bad multipart %s', async (param, fields) => {
    expect(
      await errorBodyOf(await multipart(wavWithoutSpeech({ seconds: 0.1 }), fields)),
    ).toMatchObject({
      status: 400,
      param,
    });
  });

  it('refuses a multipart body without file and a JSON body without audio_base64', async () => {
    const form = new FormData();
    form.set('language', 'en');
    expect(
      await errorBodyOf(await call(emulator, '/audio/transcriptions', { rawBody: form })),
    ).toMatchObject({
      param: 'file',
    });
    expect(
      await errorBodyOf(await call(emulator, '/audio/transcriptions', { body: {} })),
    ).toMatchObject({
      param: 'audio_base64',
    });
  });

  it('refuses an empty file and other content types', async () => {
    expect(await errorBodyOf(await multipart(new Uint8Array()))).toMatchObject({ param: 'file' });
    const text = await call(emulator, '/audio/transcriptions', {
      rawBody: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(await errorBodyOf(text)).toMatchObject({ status: 400, param: 'content-type' });
  });

  it('answers 503 when no speech-to-text node is available', async () => {
    const down = createEmulator({ services: { speech_to_text: { availableNodes: 0 } } });
    const form = new FormData();
    form.set('file', new Blob([wavWithoutSpeech({ seconds: 0.1 })]), 'a.wav');
    const response = await call(down, '/audio/transcriptions', { rawBody: form });
    expect(await errorBodyOf(response)).toMatchObject({
      status: 503,
      code: 'provider_unavailable',
    });
  });
});
