import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requiredCapabilities, validateChatRequest } from '../chat/validate-chat';
import { checkBase64, normaliseBase64 } from '../encoding/base64';
import { decodeBase64, encodeBase64 } from '../encoding/base64-bytes';
import { utf8ByteLength } from '../encoding/utf8';
import { type GatewayError, isGatewayError } from '../errors/errors';
import { LIMITS } from '../protocol/limits';
import { validateTranslationLanguages } from './service-tools';
import { validateEmbeddingsRequest, validateForEngine } from './validate-embeddings';
import { validateOcrRequest } from './validate-ocr';
import { validateTranscriptionRequest } from './validate-transcription';
import { validateTranslationRequest } from './validate-translation';

function refusal(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

async function asyncRefusal(run: () => Promise<unknown>): Promise<GatewayError> {
  try {
    await run();
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const WAV = new Uint8Array([
  0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45, 1, 2, 3, 4,
]);
const FLAC = new Uint8Array([0x66, 0x4c, 0x61, 0x43, 0, 0, 0, 0]);
const MP3_ID3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0]);
const MP3_FRAME = new Uint8Array([0xff, 0xfb, 0x90, 0x64]);
const AAC = new Uint8Array([0xff, 0xf1, 0x50, 0x80]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('chat validation', () => {
  const ok = { model: 'community/general', messages: [{ role: 'user' as const, content: 'hi' }] };

  it('accepts a minimal request and extra fields', () => {
    expect(() => validateChatRequest({ ...ok, logprobs: true })).not.toThrow();
  });

  it('refuses zero messages naming the field, the size and the limit', () => {
    const error = refusal(() => validateChatRequest({ ...ok, messages: [] }));
    expect(error.code).toBe('invalid_request_error');
    expect(error.field).toBe('messages');
    expect(error.message).toBe('messages: has 0 messages; at least 1 is required');
  });

  it('refuses an unknown response_format type and a json_schema without schema', () => {
    const error = refusal(() =>
      validateChatRequest({ ...ok, response_format: { type: 'xml' } as never }),
    );
    expect(error.field).toBe('response_format.type');
    expect(error.message).toContain('"xml"');
    expect(error.message).toContain('text, json_object, json_schema');
    expect(
      refusal(() =>
        validateChatRequest({ ...ok, response_format: { type: 'json_schema' } as never }),
      ).field,
    ).toBe('response_format.json_schema');
  });

  it('refuses unknown roles and a missing model', () => {
    expect(
      refusal(() => validateChatRequest({ ...ok, messages: [{ role: 'bot' as never }] })).field,
    ).toBe('messages[0].role');
    expect(refusal(() => validateChatRequest({ ...ok, model: '' })).field).toBe('model');
  });

  it('derives the needed capabilities', () => {
    expect(
      requiredCapabilities(
        {
          ...ok,
          tools: [{ type: 'function', function: { name: 'f' } }],
          response_format: { type: 'json_object' },
        },
        true,
      ),
    ).toEqual(['chat', 'streaming', 'tools', 'json_object']);
  });
});

describe('translation validation', () => {
  it('checks the languages alone as a translation call does (for a caller that fixes them)', () => {
    expect(() => validateTranslationLanguages({ target_language: 'pt-BR' })).not.toThrow();
    expect(refusal(() => validateTranslationLanguages({ target_language: 'german' }))).toEqual(
      refusal(() => validateTranslationRequest({ input: 'hi', target_language: 'german' })),
    );
    const source = refusal(() =>
      validateTranslationLanguages({ target_language: 'de', source_language: 'English' }),
    );
    expect(source.field).toBe('source_language');
  });

  it('accepts exactly 4096 UTF-8 bytes and refuses 4097 with both numbers', () => {
    expect(() =>
      validateTranslationRequest({ input: 'a'.repeat(4096), target_language: 'uk' }),
    ).not.toThrow();
    const error = refusal(() =>
      validateTranslationRequest({ input: `${'a'.repeat(4095)}é`, target_language: 'uk' }),
    );
    expect(error.field).toBe('input');
    expect(error.message).toBe('input: is 4097 bytes in UTF-8; the limit is 4096 bytes');
  });

  it('counts UTF-8 bytes, not characters', () => {
    const error = refusal(() =>
      validateTranslationRequest({ input: 'ї'.repeat(2049), target_language: 'en' }),
    );
    expect(error.message).toContain('4098 bytes');
  });

  it('refuses a missing target language as required', () => {
    const error = refusal(() => validateTranslationRequest({ input: 'x' } as never));
    expect(error.message).toBe(
      'target_language: is required: a language code such as "de", "uk" or "pt-BR"',
    );
  });

  it('refuses empty input, bad language codes and unknown fields', () => {
    expect(
      refusal(() => validateTranslationRequest({ input: '', target_language: 'en' })).field,
    ).toBe('input');
    expect(
      refusal(() => validateTranslationRequest({ input: 'x', target_language: 'english' })).field,
    ).toBe('target_language');
    expect(
      refusal(() =>
        validateTranslationRequest({ input: 'x', target_language: 'en', source_language: 'e' }),
      ).field,
    ).toBe('source_language');
    expect(
      refusal(() =>
        validateTranslationRequest({
          input: 'x',
          target_language: 'en',
          formality: 'high',
        } as never),
      ).field,
    ).toBe('formality');
  });

  it('property: a language code is accepted exactly when it matches the spec pattern', () => {
    const pattern = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 12 }), fc.stringMatching(pattern)), (code) => {
        let accepted = true;
        try {
          validateTranslationRequest({ input: 'x', target_language: code });
        } catch {
          accepted = false;
        }
        expect(accepted).toBe(pattern.test(code));
      }),
      { seed: 3, numRuns: 500 },
    );
  });
});

describe('embeddings validation', () => {
  it('enforces 1..64 texts, non-empty strings and 65 536 bytes in total', () => {
    expect(refusal(() => validateEmbeddingsRequest({ input: [] })).message).toContain('0 texts');
    const many = refusal(() => validateEmbeddingsRequest({ input: Array(65).fill('x') }));
    expect(many.message).toContain('65 texts; the limit is 64');
    expect(refusal(() => validateEmbeddingsRequest({ input: ['a', ''] })).field).toBe('input[1]');
    const big = refusal(() =>
      validateEmbeddingsRequest({ input: ['a'.repeat(40_000), 'b'.repeat(25_537)] }),
    );
    expect(big.message).toBe(
      'input: is 65537 bytes in UTF-8 in total; the limit is 65536 bytes per request',
    );
    expect(() =>
      validateEmbeddingsRequest({ input: ['a'.repeat(40_000), 'b'.repeat(25_536)] }),
    ).not.toThrow();
  });

  it('checks input_type values', () => {
    expect(
      refusal(() => validateEmbeddingsRequest({ input: 'x', input_type: 'passage' as never }))
        .field,
    ).toBe('input_type');
  });

  it('limits texts to 32 KB and dimensions to 128/256/512/768 on the multilingual engine only', () => {
    const engine = { id: 'multilingual-e5-base' };
    const english = { id: 'all-minilm-l6-v2' };
    const text = 'a'.repeat(LIMITS.multilingualMaxTextBytes + 1);
    const sizes = validateEmbeddingsRequest({ input: [text] });
    const error = refusal(() => validateForEngine({ input: [text] }, sizes, engine));
    expect(error.message).toContain(`${LIMITS.multilingualMaxTextBytes + 1} bytes`);
    expect(error.message).toContain(`at most ${LIMITS.multilingualMaxTextBytes} bytes`);
    expect(() => validateForEngine({ input: [text] }, sizes, english)).not.toThrow();
    expect(
      refusal(() =>
        validateForEngine({ input: 'x', dimensions: 300 }, [1], {
          id: 'e',
          name: 'Multilingual E5',
        }),
      ).field,
    ).toBe('dimensions');
  });

  it('checks dimensions where known: the engine listing, else the spec (384 for English)', () => {
    const english = { id: 'all-minilm-l6-v2', name: 'all-MiniLM-L6-v2 (English)' };
    const error = refusal(() => validateForEngine({ input: 'x', dimensions: 256 }, [1], english));
    expect(error.field).toBe('dimensions');
    expect(error.message).toBe('dimensions: is 256; the engine "all-minilm-l6-v2" supports 384');
    expect(() => validateForEngine({ input: 'x', dimensions: 384 }, [1], english)).not.toThrow();
    const listed = { id: 'custom', dimensions: [1024, 64] };
    expect(() => validateForEngine({ input: 'x', dimensions: 64 }, [1], listed)).not.toThrow();
    expect(
      refusal(() => validateForEngine({ input: 'x', dimensions: 384 }, [1], listed)).message,
    ).toBe('dimensions: is 384; the engine "custom" supports 64, 1024');
    const single = { id: 'one', dimensions: 512 };
    expect(() => validateForEngine({ input: 'x', dimensions: 512 }, [1], single)).not.toThrow();
    expect(() =>
      validateForEngine({ input: 'x', dimensions: 384 }, [1], { id: 'english-small' }),
    ).not.toThrow();
    // The spec's catalog lists no dimensions: an engine it does not describe is not guessed at.
    for (const other of [{ id: 'bge-m3', name: 'BGE M3' }, { id: 'all-minilm-l6-v2' }]) {
      for (const dimensions of [1024, 384, 7]) {
        expect(() => validateForEngine({ input: 'x', dimensions }, [1], other)).not.toThrow();
      }
    }
    const unreadable = { id: 'multilingual-x', dimensions: 'many' };
    expect(() => validateForEngine({ input: 'x', dimensions: 768 }, [1], unreadable)).not.toThrow();
    expect(
      refusal(() => validateForEngine({ input: 'x', dimensions: 384 }, [1], unreadable)).field,
    ).toBe('dimensions');
  });

  it('property: total byte size decides acceptance exactly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 3000 }), { minLength: 1, maxLength: 64 }),
        (texts) => {
          const total = texts.reduce((sum, t) => sum + new TextEncoder().encode(t).length, 0);
          let accepted = true;
          try {
            validateEmbeddingsRequest({ input: texts });
          } catch {
            accepted = false;
          }
          expect(accepted).toBe(total <= LIMITS.embeddingsMaxTotalBytes);
        },
      ),
      { seed: 11, numRuns: 200 },
    );
  });
});

describe('utf8ByteLength', () => {
  it('property: equals TextEncoder', () => {
    // Any code point (1- to 4-byte UTF-8) mixed with lone surrogates (3 bytes each, as U+FFFD).
    // Built from integers: fast-check's `unit: 'binary'` spends ~0.9 s of CPU building its tables,
    // which made this test the suite's slowest and timed it out on a loaded machine.
    const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c));
    const loneSurrogate = fc
      .integer({ min: 0xd800, max: 0xdfff })
      .map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(codePoint, loneSurrogate) }), (text) => {
        expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
      }),
      { seed: 5, numRuns: 500 },
    );
  });
});

describe('base64', () => {
  it('property: encode/check/decode round-trip', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = encodeBase64(bytes);
        expect(text).toBe(btoa(String.fromCharCode(...bytes)));
        expect(checkBase64('x', text)).toBe(bytes.length);
        expect(decodeBase64(text)).toEqual(bytes);
      }),
      { seed: 9, numRuns: 300 },
    );
  });

  it('property: accepted exactly when atob accepts it (no whitespace)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'AQz09+/=-_ !'.split('')), maxLength: 12 }),
        (text) => {
          let atobOk = !/\s/.test(text);
          try {
            atob(text);
          } catch {
            atobOk = false;
          }
          let ok = true;
          try {
            checkBase64('x', text);
          } catch {
            ok = false;
          }
          expect(ok).toBe(atobOk);
        },
      ),
      { seed: 13, numRuns: 1000 },
    );
  });

  it('normalises line-wrapped and unpadded base64 to the padded compact form', () => {
    expect(normaliseBase64('x', 'aGVsbG8')).toEqual({ text: 'aGVsbG8=', size: 5 });
    expect(normaliseBase64('x', 'aGVs\r\nbA')).toEqual({ text: 'aGVsbA==', size: 4 });
    expect(normaliseBase64('x', ' data:image/png;base64,aGVs bG8=\n')).toEqual({
      text: 'aGVsbG8=',
      size: 5,
    });
    expect(() => normaliseBase64('image', 'aGVsb')).toThrow(/^image: .*dangling/);
    expect(() => normaliseBase64('image', 'aGVsbG8-')).toThrow(/^image: .*"-"/);
  });

  it('property: any wrapping of unpadded base64 normalises to the padded text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }), fc.integer({ min: 1, max: 9 }), (bytes, w) => {
        const padded = encodeBase64(bytes);
        const wrapped = padded.replace(/=+$/, '').replace(new RegExp(`(.{${w}})`, 'g'), '$1\n');
        expect(normaliseBase64('x', wrapped)).toEqual({ text: padded, size: bytes.length });
      }),
      { seed: 17, numRuns: 300 },
    );
  });
});

describe('OCR and transcription validation', () => {
  it('refuses malformed base64, empty and oversized images', async () => {
    expect((await asyncRefusal(() => validateOcrRequest({ image: 'ab$c' }))).message).toContain(
      'position 2',
    );
    expect(
      (await asyncRefusal(() => validateOcrRequest({ image: new Uint8Array(0) }))).message,
    ).toContain('0 bytes');
    const big = await asyncRefusal(() =>
      validateOcrRequest({ image: new Uint8Array(LIMITS.ocrMaxImageBytes + 1) }),
    );
    expect(big.message).toBe(
      'image: decodes to 24117249 bytes; the limit is 24117248 bytes (23 MiB)',
    );
  });

  it('sends bytes and data URLs as plain base64', async () => {
    expect(await validateOcrRequest({ image: PNG })).toBe(encodeBase64(PNG));
    expect(await validateOcrRequest({ image: `data:image/png;base64,${encodeBase64(PNG)}` })).toBe(
      encodeBase64(PNG),
    );
  });

  it('recognises WAV, MP3 and FLAC by their magic bytes in every input form', async () => {
    expect((await validateTranscriptionRequest({ audio: WAV })).format).toBe('wav');
    expect((await validateTranscriptionRequest({ audio: FLAC.buffer })).format).toBe('flac');
    expect((await validateTranscriptionRequest({ audio: encodeBase64(MP3_ID3) })).format).toBe(
      'mp3',
    );
    expect((await validateTranscriptionRequest({ audio: new Blob([MP3_FRAME]) })).format).toBe(
      'mp3',
    );
    const file = await validateTranscriptionRequest({
      audio: new File([WAV], 'talk.wav', { type: 'audio/x-wav' }),
    });
    expect(file.filename).toBe('talk.wav');
    expect(file.mimeType).toBe('audio/x-wav');
  });

  it('looks past an ID3 tag: FLAC behind one is FLAC, MP3 behind one (or a cut file) MP3', async () => {
    // A 300-byte tag (syncsafe: 2 * 128 + 44), then the audio; flag 0x10 adds a 10-byte footer.
    const tagged = (after: Uint8Array, flags = 0) => {
      const tagEnd = 10 + 300 + (flags & 0x10 ? 10 : 0);
      const bytes = new Uint8Array(tagEnd + after.length);
      bytes.set([0x49, 0x44, 0x33, 4, 0, flags, 0, 0, 2, 44]);
      bytes.set(after, tagEnd);
      return bytes;
    };
    const format = async (audio: Uint8Array | Blob | string) =>
      (await validateTranscriptionRequest({ audio })).format;
    expect(await format(tagged(FLAC))).toBe('flac');
    expect(await format(new Blob([tagged(FLAC, 0x10)]))).toBe('flac');
    expect(await format(encodeBase64(tagged(FLAC)))).toBe('flac');
    const flac = await validateTranscriptionRequest({ audio: tagged(FLAC) });
    expect([flac.mimeType, flac.filename]).toEqual(['audio/flac', 'audio.flac']);
    expect(await format(tagged(MP3_FRAME))).toBe('mp3');
    expect(await format(tagged(FLAC).subarray(0, 312))).toBe('mp3');
  });

  it('refuses behind an ID3 tag what it refuses without one (AAC, Ogg), naming both', async () => {
    const tagged = (after: Uint8Array) =>
      new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0, ...after]);
    const OGG = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0, 2]);
    const aac = await asyncRefusal(() => validateTranscriptionRequest({ audio: tagged(AAC) }));
    expect([aac.code, aac.field, aac.message]).toEqual([
      'invalid_request_error',
      'audio',
      'audio: is not WAV, MP3 or FLAC (first bytes: 49 44 33 04, an ID3 tag, then ff f1 50 80); the gateway accepts only these formats',
    ]);
    const ogg = await asyncRefusal(() =>
      validateTranscriptionRequest({ audio: new Blob([tagged(OGG)]) }),
    );
    expect(ogg.message).toContain('then 4f 67 67 53');
  });

  it('refuses other formats, oversized audio and bad options', async () => {
    expect(
      (await asyncRefusal(() => validateTranscriptionRequest({ audio: AAC }))).message,
    ).toContain('ff f1 50 80');
    expect((await asyncRefusal(() => validateTranscriptionRequest({ audio: PNG }))).field).toBe(
      'audio',
    );
    const big = new Uint8Array(LIMITS.audioMaxBytes + 1);
    big.set(WAV);
    expect((await asyncRefusal(() => validateTranscriptionRequest({ audio: big }))).message).toBe(
      'audio: is 24117249 bytes; the limit is 24117248 bytes (23 MiB)',
    );
    expect(
      (
        await asyncRefusal(() =>
          validateTranscriptionRequest({ audio: WAV, response_format: 'srt' as never }),
        )
      ).field,
    ).toBe('response_format');
  });
});
