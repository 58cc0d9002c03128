import { describe, expect, it } from 'vitest';
import {
  serviceToolArgumentsProblem,
  serviceToolCallProblem,
  serviceToolRequest,
} from './service-tool-arguments';
import { serviceToolDefinition } from './service-tools';

describe('service tools (one definition for both adapters)', () => {
  it('names the service, the snake_case parameters and the limits', () => {
    const translate = serviceToolDefinition('translate');
    expect(translate.service).toBe('translation');
    expect(translate.parameters.required).toEqual(['text', 'target_language']);
    expect(
      serviceToolDefinition('translate', { targetLanguage: 'de' }).parameters.required,
    ).toEqual(['text']);
    const ocr = serviceToolDefinition('ocr');
    // (No maxLength: the limit is on the decoded bytes, core's check; rv-svc F1.)
    expect(ocr.parameters.properties.image?.maxLength).toBeUndefined();
    expect(ocr.parameters.properties.image?.description).toContain('23 MiB');
    expect(
      serviceToolDefinition('ocr', { resolvesMedia: true }).parameters.properties.image?.maxLength,
    ).toBeUndefined();
    expect(serviceToolDefinition('transcribe').service).toBe('speech_to_text');
  });

  it('refuses a fixed target language that is no language code, naming the option', () => {
    let error: unknown;
    try {
      serviceToolDefinition('translate', { targetLanguage: 'german' });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'targetLanguage' });
  });

  it("maps the model's arguments to core's requests", () => {
    expect(serviceToolRequest('translate', { text: 'hi', target_language: 'uk' })).toEqual({
      input: 'hi',
      target_language: 'uk',
    });
    expect(
      serviceToolRequest(
        'translate',
        { text: 'hi', source_language: 'en' },
        { targetLanguage: 'de' },
      ),
    ).toEqual({ input: 'hi', target_language: 'de', source_language: 'en' });
    const media = new Uint8Array([1, 2]);
    expect(serviceToolRequest('ocr', { image: 'scan.png' }, { media })).toEqual({ image: media });
    expect(
      serviceToolRequest('transcribe', { audio: 'QUJD', language: 'uk', translate: true }),
    ).toEqual({
      audio: 'QUJD',
      response_format: 'json',
      language: 'uk',
      translate: true,
    });
  });

  it('says what is wrong with arguments, including the UTF-8 byte limit', () => {
    expect(
      serviceToolArgumentsProblem('translate', { text: 'hi', target_language: 'de' }),
    ).toBeUndefined();
    expect(serviceToolArgumentsProblem('translate', { text: 'hi' })).toMatch(
      /target_language.*required/,
    );
    expect(
      serviceToolArgumentsProblem('translate', { text: 'hi', target_language: 'German' }),
    ).toMatch(/language code/);
    expect(
      serviceToolArgumentsProblem('translate', { text: 'ж'.repeat(2049), target_language: 'de' }),
    ).toMatch(/4098 bytes.*limit is 4096 bytes/);
    expect(serviceToolArgumentsProblem('transcribe', { audio: 'x', translate: 'yes' })).toMatch(
      /boolean/,
    );
    expect(serviceToolArgumentsProblem('ocr', { image: 'x', extra: 1 })).toMatch(
      /unknown argument/,
    );
    expect(serviceToolArgumentsProblem('ocr', null)).toMatch(/object/);
    for (const name of ['toString', 'constructor', '__proto__']) {
      const args = JSON.parse(`{"image": "x", "${name}": "y"}`);
      expect(serviceToolArgumentsProblem('ocr', args)).toBe(`unknown argument "${name}"`);
    }
  });

  it("runs the service call's own pre-network checks on a tool call (media kind, base64, URL)", async () => {
    const wavHead = btoa('RIFF\0\0\0\0WAVEfmt ');
    expect(await serviceToolCallProblem('transcribe', { audio: wavHead })).toBeUndefined();
    expect(await serviceToolCallProblem('transcribe', { audio: 'aGVsbG8=' })).toMatch(
      /^audio: is not WAV, MP3 or FLAC/,
    );
    expect(await serviceToolCallProblem('ocr', { image: 'https://example.com/a.png' })).toMatch(
      /^image: is not well-formed base64/,
    );
    expect(await serviceToolCallProblem('ocr', { image: 'a' })).toMatch(/^image: /);
    // The resolved media is checked, not the reference the model passed.
    const media = new Uint8Array([1, 2, 3]);
    expect(await serviceToolCallProblem('ocr', { image: 'scan 1' }, { media })).toBeUndefined();
    expect(await serviceToolCallProblem('transcribe', { audio: 'memo' }, { media })).toMatch(
      /^audio: is not WAV/,
    );
    // The arguments' own problems come first, as serviceToolArgumentsProblem words them.
    expect(await serviceToolCallProblem('translate', { text: 'hi' })).toMatch(
      /"target_language" is required/,
    );
    expect(
      await serviceToolCallProblem('translate', { text: 'hi' }, { targetLanguage: 'de' }),
    ).toBeUndefined();
  });
});
