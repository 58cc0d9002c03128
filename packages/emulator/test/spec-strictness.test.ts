/**
 * The emulator refuses what the spec (gateway-api.md, read through READING-NOTES.md) refuses, so a
 * client's own check before the network is proven against a real refusal: a `json_schema` without
 * its `name`, a `null` where a service field is typed, an empty spoken language, an oversized body
 * answered with one of the spec's statuses and codes (400 `invalid_request_error`, never 413).
 */
import { describe, expect, it } from 'vitest';
import { wavWithoutSpeech } from '../src/fixtures';
import { createEmulator, DEFAULT_KEYS, MAX_BODY_BYTES } from '../src/index';
import { BASE, base64, call, chat, errorBodyOf, userChat } from './helpers';

const emulator = createEmulator();

describe('chat: a json_schema response_format names its schema (spec 2.5: `{name, schema}`)', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } } };
  const withFormat = (jsonSchema: Record<string, unknown>) =>
    userChat('community/json-schema', 'x', {
      response_format: { type: 'json_schema', json_schema: jsonSchema },
    });

  it.each([
    ['without a name', { schema }],
    ['with an empty name', { name: '', schema }],
    ['with a name that is no string', { name: 5, schema }],
  ])('refuses one %s: 400 invalid_request_error naming the field', async (_, jsonSchema) => {
    const error = await errorBodyOf(await chat(emulator, withFormat(jsonSchema)));
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request_error',
      param: 'response_format.json_schema',
    });
    expect(error.message).toContain('response_format.json_schema.name');
  });

  it('answers one with its name and schema', async () => {
    const response = await chat(emulator, withFormat({ name: 'answer', schema }));
    expect(response.status).toBe(200);
  });
});

describe('translation: optional fields are strings when present (spec 2.8)', () => {
  const translate = (body: Record<string, unknown>) => call(emulator, '/translations', { body });
  const base = { input: 'Good morning', target_language: 'de' };

  it.each([
    ['source_language', { ...base, source_language: null }],
    ['model', { ...base, model: null }],
    ['target_language', { ...base, target_language: null }],
  ])('refuses %s: null with 400 invalid_request_error naming it', async (param, body) => {
    const error = await errorBodyOf(await translate(body));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request_error', param });
  });

  it.each([
    ['target_language', 'german'],
    ['target_language', 'd'],
    ['target_language', 'pt_BR'],
    ['source_language', ''],
    ['source_language', 'en-'],
  ])('refuses %s %j: not a code of the pattern', async (param, value) => {
    const error = await errorBodyOf(await translate({ ...base, [param]: value }));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request_error', param });
    expect(error.message).toContain('^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$');
  });

  it('names a long refused code by its length, never echoing it', async () => {
    const error = await errorBodyOf(
      await translate({ ...base, target_language: 'x'.repeat(5000) }),
    );
    expect(error).toMatchObject({ status: 400, param: 'target_language' });
    expect(error.message).toContain('got a string of 5000 characters');
  });

  it('detects the source language when it is omitted, and takes codes with a region', async () => {
    const response = await translate({ ...base, target_language: 'pt-BR' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      source_language: 'en',
      target_language: 'pt-BR',
    });
  });
});

describe('transcription: fields keep their spec types (spec 4.6)', () => {
  const audio_base64 = base64(wavWithoutSpeech({ seconds: 0.5 }));
  const transcribe = (body: Record<string, unknown>) =>
    call(emulator, '/audio/transcriptions', { body: { audio_base64, ...body } });

  it.each([
    ['language', { language: null }],
    ['language', { language: '' }],
    ['language', { language: '  ' }],
    ['response_format', { response_format: null }],
    ['translate', { translate: null }],
    ['filename', { filename: null }],
    ['mime_type', { mime_type: null }],
  ])('JSON: refuses %s %j with 400 invalid_request_error naming it', async (param, fields) => {
    const error = await errorBodyOf(await transcribe(fields));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request_error', param });
  });

  it('names a refused value by its kind when it is large, never echoing it', async () => {
    const error = await errorBodyOf(await transcribe({ language: { code: 'x'.repeat(1000) } }));
    expect(error).toMatchObject({ status: 400, param: 'language' });
    expect(error.message).toContain('got an object');
    expect(error.message.length).toBeLessThan(200);
  });

  it('multipart: refuses an empty language field, no spoken language code', async () => {
    const form = new FormData();
    form.set('file', new Blob([wavWithoutSpeech({ seconds: 0.5 })]), 'a.wav');
    form.set('language', '');
    const error = await errorBodyOf(
      await call(emulator, '/audio/transcriptions', { rawBody: form }),
    );
    expect(error).toMatchObject({ status: 400, code: 'invalid_request_error', param: 'language' });
  });

  it('detects the language when it is omitted', async () => {
    const response = await transcribe({});
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ language: 'en' });
  });
});

describe('an oversized body is 400 invalid_request_error (the spec lists no 413)', () => {
  /** A body streamed in 1 MiB pieces, `bytes` long, never held whole by the test. */
  function streamedBody(bytes: number): ReadableStream<Uint8Array> {
    const piece = new Uint8Array(1024 * 1024).fill(0x20);
    let sent = 0;
    return new ReadableStream({
      pull(controller) {
        if (sent >= bytes) return controller.close();
        const size = Math.min(piece.length, bytes - sent);
        controller.enqueue(piece.subarray(0, size));
        sent += size;
      },
    });
  }

  it('refuses a body past MAX_BODY_BYTES as the spec refuses an invalid request', async () => {
    const request = new Request(`${BASE}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${DEFAULT_KEYS.full}`,
        'content-type': 'application/json',
      },
      body: streamedBody(MAX_BODY_BYTES + 1024 * 1024),
      duplex: 'half',
    } as RequestInit);
    const response = await emulator.fetch(request);
    const error = await errorBodyOf(response);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request_error', param: 'body' });
    expect(error.message).toContain(`at most ${MAX_BODY_BYTES} bytes`);
  });
});
