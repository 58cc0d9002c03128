import { InvalidArgumentError } from '@ai-sdk/provider';
import { asSchema } from '@ai-sdk/provider-utils';
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { generateText, stepCountIs } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn } from '../../test/providers';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway } = providersOn(emulated);

const files: Record<string, Uint8Array> = {
  'scan.png': pngWithText('Привіт, світе'),
  'memo.wav': wavWithSpeech('call me back tomorrow'),
};

describe('service tools in an agent loop', () => {
  it('lets the model call translate and answers with its result', async () => {
    const provider = gateway();
    const result = await generateText({
      model: provider('community/general'),
      tools: { translate: provider.tools.translate({ targetLanguage: 'de' }) },
      stopWhen: stepCountIs(3),
      prompt: 'Please translate "good morning" with translate',
    });
    expect(result.steps[0]?.toolCalls[0]).toMatchObject({
      toolName: 'translate',
      input: { text: 'good morning' },
    });
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({
      text: '[de] good morning',
      sourceLanguage: expect.any(String),
      targetLanguage: 'de',
    });
    expect(result.text).toContain('Tool translate returned:');
    expect(result.text).toContain('[de] good morning');
    expect(emulator.counters.requests.translations).toBe(1);
  });

  it("core's availability rule: available_nodes 0 refuses before sending, a missing count does not", async () => {
    // A gateway whose /capabilities leaves out the translation entry's count and reports ocr at 0.
    const patched: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (!String(input).endsWith('/capabilities')) return answer;
      const body = (await answer.json()) as { data: Record<string, unknown>[] };
      for (const entry of body.data) {
        if (entry.id === 'translation') delete entry.available_nodes;
        if (entry.id === 'ocr') entry.available_nodes = 0;
      }
      return Response.json(body, { status: answer.status, headers: answer.headers });
    };
    const provider = gateway({ fetch: patched });
    await provider.services();
    expect((await provider.translate({ text: 'hi', targetLanguage: 'de' })).text).toBe('[de] hi');
    await expect(provider.ocr({ image: files['scan.png']! })).rejects.toMatchObject({
      data: { code: 'provider_unavailable' },
    });
    expect(emulator.counters.requests.translations).toBe(1);
    expect(emulator.counters.requests.ocr).toBe(0);
  });

  it('runs ocr and transcribe tools on files the application resolves', async () => {
    const provider = gateway();
    const resolve = async (name: string) => {
      const bytes = files[name];
      if (bytes === undefined) throw new Error(`no file ${name}`);
      return bytes;
    };
    const result = await generateText({
      model: provider('community/general'),
      tools: {
        ocr: provider.tools.ocr({ resolveImage: resolve }),
        transcribe: provider.tools.transcribe({ resolveAudio: resolve }),
      },
      stopWhen: stepCountIs(3),
      messages: [{ role: 'user', content: 'Use ocr on "scan.png"' }],
    });
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ text: 'Привіт, світе' });

    const spoken = await generateText({
      model: provider('community/general'),
      tools: { transcribe: provider.tools.transcribe({ resolveAudio: resolve }) },
      toolChoice: { type: 'tool', toolName: 'transcribe' },
      stopWhen: stepCountIs(1),
      prompt: 'What does "memo.wav" say? Use transcribe',
    });
    // The scripted model fills the optional fields too (language, translate), hence the prefix.
    expect(spoken.steps[0]?.toolResults[0]?.output).toMatchObject({
      text: expect.stringContaining('call me back tomorrow'),
    });
  });

  it("exposes core's JSON schemas, checked with the spec limits before the tool runs", async () => {
    const translate = gateway().tools.translate();
    const schema = asSchema(translate.inputSchema);
    expect(await schema.jsonSchema).toMatchObject({
      type: 'object',
      required: ['text', 'target_language'],
      properties: { target_language: { type: 'string' }, source_language: { type: 'string' } },
    });
    const check = async (value: unknown) => (await schema.validate?.(value))?.success;
    expect(await check({ text: 'hi', target_language: 'pt-BR' })).toBe(true);
    expect(await check({ text: 'hi', target_language: 'Portuguese!' })).toBe(false);
    expect(await check({ text: '', target_language: 'de' })).toBe(false);
    expect(await check({ text: 'ж'.repeat(2049), target_language: 'de' })).toBe(false);
    expect(await check({ text: 'hi' })).toBe(false);
    const fixed = asSchema(gateway().tools.translate({ targetLanguage: 'de' }).inputSchema);
    expect((await fixed.validate?.({ text: 'hi' }))?.success).toBe(true);
  });
});

describe('service tools: media core would refuse', () => {
  it.each([
    { name: 'transcribe', audio: 'aGVsbG8=', refusal: 'audio: is not WAV, MP3 or FLAC' },
    { name: 'transcribe', audio: 'UklGR%%', refusal: 'audio: is not well-formed base64' },
    {
      name: 'ocr',
      image: 'https://example.com/scan.png',
      refusal: 'image: is not well-formed base64',
    },
  ] as const)(
    "$name: an input error handed back to the model with core's refusal, nothing sent",
    async ({ name, refusal, ...media }) => {
      const provider = gateway();
      const result = await generateText({
        model: provider('community/general'),
        tools: { [name]: provider.tools[name]() },
        toolChoice: { type: 'tool', toolName: name },
        stopWhen: stepCountIs(1),
        prompt: `Use ${name} on "${Object.values(media)[0]}"`,
      });
      const errors = result.steps[0]?.content.filter((part) => part.type === 'tool-error') ?? [];
      expect(errors).toHaveLength(1);
      const { error } = errors[0] as { error: unknown };
      // An input error (`ai` checked it before running the tool), not a failed run.
      expect(String(error)).toMatch(/^AI_InvalidToolInputError: /);
      expect(String(error)).toContain(`${name}: ${refusal}`);
      expect(emulator.counters.requests.transcriptions + emulator.counters.requests.ocr).toBe(0);
    },
  );
});

describe('service helpers', () => {
  it('translate, ocr and transcribe return typed results', async () => {
    const provider = gateway();
    await expect(
      provider.translate({ text: 'hello', targetLanguage: 'uk', sourceLanguage: 'en' }),
    ).resolves.toEqual({
      text: '[uk] hello',
      sourceLanguage: 'en',
      targetLanguage: 'uk',
    });
    await expect(provider.ocr({ image: pngWithText('Hello') })).resolves.toMatchObject({
      text: 'Hello',
      confidence: 0.98,
    });
    await expect(
      provider.transcribe({ audio: wavWithSpeech('one two'), language: 'en' }),
    ).resolves.toEqual({
      text: 'one two',
      language: 'en',
      durationInSeconds: 1,
    });
  });

  it('checks limits before the network', async () => {
    const error = await gateway()
      .translate({ text: 'x'.repeat(5000), targetLanguage: 'de' })
      .catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('4096');
    expect(emulator.counters.requests.translations).toBe(0);
  });

  it.each([
    [{ text: 'x'.repeat(4097), targetLanguage: 'de' }, 'text', 'text: is 4097 bytes in UTF-8'],
    [{ text: '', targetLanguage: 'de' }, 'text', 'text: is empty'],
    [{ text: 'hi', targetLanguage: 'german' }, 'targetLanguage', 'targetLanguage: "german" is not'],
    [{ text: 'hi' }, 'targetLanguage', 'targetLanguage: is required: a language code'],
    [
      { text: 'hi', targetLanguage: 'de', sourceLanguage: 'ukr_UA' },
      'sourceLanguage',
      'sourceLanguage: "ukr_UA" is not',
    ],
  ])(
    'translate names the field of its own input it refuses, nothing sent (%#)',
    async (input, argument, message) => {
      const error = await gateway()
        .translate(input as never)
        .catch((e: unknown) => e);
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ argument });
      expect((error as Error).message).toContain(message);
      expect(emulator.counters.requests.translations).toBe(0);
    },
  );

  it('tools.translate refuses a fixed targetLanguage that is no language code as it is made', async () => {
    const error = (() => {
      try {
        gateway().tools.translate({ targetLanguage: 'german' });
      } catch (e) {
        return e;
      }
    })();
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: 'tools.translate.targetLanguage' });
    expect((error as Error).message).toContain('"german" is not a language code');
    expect(gateway().tools.translate({ targetLanguage: 'pt-BR' }).description).toContain('pt-BR');
  });

  it.each([
    [
      () =>
        gateway().translate({ text: 'hi', targetLanguage: 'de', sourcelanguage: 'en' } as never),
      'unknown option `sourcelanguage` in translate input — did you mean `sourceLanguage`?',
    ],
    [
      () => gateway().translate({ text: 'hi', target_language: 'de' } as never),
      'unknown option `target_language` in translate input — did you mean `targetLanguage`?',
    ],
    [
      () => gateway().translate({ input: 'hi', targetLanguage: 'de' } as never),
      'unknown option `input` in translate input — the text goes in `text`',
    ],
    [
      () => gateway().transcribe({ audio: wavWithSpeech('one'), prompt: 'names' } as never),
      'unknown option `prompt` in transcribe input; known: audio, mediaType, language, translate',
    ],
    [
      () => gateway().transcribe({ audio: wavWithSpeech('one'), mime_type: 'audio/wav' } as never),
      'unknown option `mime_type` in transcribe input — use `mediaType`',
    ],
    [
      () => gateway().ocr({ image_base64: 'aGk=' } as never),
      'unknown option `image_base64` in ocr input — did you mean `image`?',
    ],
    [
      () => gateway().ocr({ image: pngWithText('Hi') }, { signal: AbortSignal.abort() } as never),
      'unknown option `signal` in ocr options — did you mean `abortSignal`?',
    ],
  ])('refuses an unknown key naming the right one, nothing sent (%#)', async (call, message) => {
    const error = await call().catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(message);
    const { translations, transcriptions, ocr } = emulator.counters.requests;
    expect([translations, transcriptions, ocr]).toEqual([0, 0, 0]);
  });
});
