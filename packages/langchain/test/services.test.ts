import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { caught, emulate, untilRequests } from '@infergate/emulator/testing';
import { Document } from '@langchain/core/documents';
import { RunnableLambda } from '@langchain/core/runnables';
import { ToolInputParsingException } from '@langchain/core/tools';
import { createAgent, createMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import {
  createGatewayTools,
  createOcrTool,
  createTranscribeTool,
  createTranslateTool,
  GatewayAudioTranscriptLoader,
  GatewayChatModel,
  GatewayOcrLoader,
  GatewayTranslator,
  isGatewayError,
} from '../src/index';
import { splitForTranslation } from '../src/runnables/split-for-translation';
import { base64, intercepting } from './helpers';

describe('service tools', () => {
  it('createGatewayTools returns only the services available now', async () => {
    const { connection } = await emulate({
      scenario: { services: { ocr: { availableNodes: 0 } } },
    });
    const tools = await createGatewayTools(connection);
    expect(tools.map((t) => t.name)).toEqual(['translate', 'transcribe']);
  });

  it('createGatewayTools keeps a service whose available_nodes is missing (core rule: only 0 is unavailable)', async () => {
    // A gateway that leaves the field out of the translation entry.
    const connection = intercepting(
      await emulate({ scenario: { services: { ocr: { availableNodes: 0 } } } }),
      async (request, emulator) => {
        if (!request.url.endsWith('/capabilities')) return undefined;
        const answer = await emulator.fetch(request);
        const body = (await answer.json()) as { data: Record<string, unknown>[] };
        for (const entry of body.data) if (entry.id === 'translation') delete entry.available_nodes;
        return Response.json(body, { status: answer.status, headers: answer.headers });
      },
    );
    const tools = await createGatewayTools(connection);
    expect(tools.map((t) => t.name)).toEqual(['translate', 'transcribe']);
  });

  it('translate calls the translation service; the schema holds the spec limits', async () => {
    const { emulator, connection } = await emulate();
    const translate = createTranslateTool(connection);
    expect(await translate.invoke({ text: 'hello', target_language: 'uk' })).toBe('[uk] hello');
    await expect(
      translate.invoke({ text: 'hello', target_language: 'not a code' }),
    ).rejects.toThrow();
    await expect(
      translate.invoke({ text: 'я'.repeat(2049), target_language: 'en' }),
    ).rejects.toThrow(/4096 bytes/);
    expect(emulator.counters.requests.translations).toBe(1);
  });

  it('ocr and transcribe read base64, or a reference through resolveMedia', async () => {
    const { connection } = await emulate();
    const ocr = createOcrTool(connection);
    expect(await ocr.invoke({ image: base64(pngWithText('Привіт, світ')) })).toBe('Привіт, світ');
    const transcribe = createTranscribeTool({
      ...connection,
      resolveMedia: (reference) => {
        expect(reference).toBe('voice-note-1');
        return wavWithSpeech('good morning');
      },
    });
    expect(await transcribe.invoke({ audio: 'voice-note-1' })).toBe('good morning');
  });

  it('a reference resolveMedia does not know (undefined or null) is a tool input error, nothing is sent', async () => {
    const { connection, emulator } = await emulate();
    const files = new Map([['scan-1.png', pngWithText('Invoice 42')]]);
    const resolveMedia = (reference: string) =>
      reference === 'gone' ? null : files.get(reference);
    const ocr = createOcrTool({ ...connection, resolveMedia });
    expect(await ocr.invoke({ image: 'scan-1.png' })).toBe('Invoice 42');
    for (const image of ['invoice', 'gone']) {
      const error = await ocr.invoke({ image }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolInputParsingException);
      expect((error as Error).message).toBe(
        `ocr: "image" is "${image}", a reference resolveMedia does not know (it returned ` +
          `${image === 'gone' ? 'null' : 'undefined'}): pass the name, URL or id of a known image`,
      );
    }
    const transcribe = createTranscribeTool({ ...connection, resolveMedia: () => undefined });
    await expect(transcribe.invoke({ audio: 'meeting' })).rejects.toThrow(
      /"audio" is "meeting", a reference resolveMedia does not know/,
    );
    expect(emulator.counters.requests.ocr).toBe(1);
    expect(emulator.counters.requests.transcriptions).toBe(0);
  });
});

/** Media core refuses before sending, each with the start of core's refusal. */
const BAD_MEDIA = [
  { name: 'transcribe', args: { audio: 'aGVsbG8=' }, refusal: 'audio: is not WAV, MP3 or FLAC' },
  { name: 'transcribe', args: { audio: 'UklGR%%' }, refusal: 'audio: is not well-formed base64' },
  {
    name: 'ocr',
    args: { image: 'https://example.com/scan.png' },
    refusal: 'image: is not well-formed base64',
  },
] as const;

describe('service tools refuse media core would refuse as a tool input error', () => {
  it.each(BAD_MEDIA)(
    "$name $args: a ToolInputParsingException with core's message, nothing sent",
    async ({ name, args, refusal }) => {
      const { connection, emulator } = await emulate();
      const toolCall = { type: 'tool_call' as const, id: 'call_1', name, args };
      const run =
        name === 'ocr'
          ? createOcrTool(connection).invoke(toolCall)
          : createTranscribeTool(connection).invoke(toolCall);
      const error = await run.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolInputParsingException);
      expect((error as Error).message).toMatch(new RegExp(`^${name}: ${refusal}`));
      expect(emulator.counters.requests.ocr + emulator.counters.requests.transcriptions).toBe(0);
    },
  );

  it('media resolveMedia returns is checked once resolved, refused alike', async () => {
    const { connection, emulator } = await emulate();
    const transcribe = createTranscribeTool({
      ...connection,
      resolveMedia: () => pngWithText('not speech'),
    });
    const error = await transcribe
      .invoke({ type: 'tool_call', id: 'call_1', name: 'transcribe', args: { audio: 'memo' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolInputParsingException);
    expect((error as Error).message).toMatch(/^transcribe: audio: is not WAV, MP3 or FLAC/);
    expect(emulator.counters.requests.transcriptions).toBe(0);
  });

  it('in createAgent with a wrapToolCall middleware the model gets an error ToolMessage, the run goes on', async () => {
    const { connection, emulator } = await emulate();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      capabilities: ['chat', 'streaming', 'tools'],
    });
    const passThrough = createMiddleware({
      name: 'pass-through',
      wrapToolCall: async (request, handler) => handler(request),
    });
    const agent = createAgent({
      model,
      tools: [createTranscribeTool(connection)],
      middleware: [passThrough],
    });
    const { messages } = await agent.invoke({
      messages: [{ role: 'user', content: 'Use transcribe on "aGVsbG8="' }],
    });
    const toolMessage = messages.find((message) => message.getType() === 'tool');
    expect(toolMessage).toMatchObject({ status: 'error' });
    expect(String(toolMessage?.content)).toContain('transcribe: audio: is not WAV, MP3 or FLAC');
    expect(emulator.counters.requests.transcriptions).toBe(0);
  });
});

describe('document loaders', () => {
  it('GatewayAudioTranscriptLoader gives a Document with language and duration', async () => {
    const { connection } = await emulate();
    const audio = new Blob([wavWithSpeech('hello from the meeting', { seconds: 2 })], {
      type: 'audio/wav',
    });
    const loader = new GatewayAudioTranscriptLoader({
      ...connection,
      audio,
      filename: 'meeting.wav',
      metadata: { team: 'core' },
    });
    const [doc] = await loader.load();
    expect(doc?.pageContent).toBe('hello from the meeting');
    expect(doc?.metadata).toMatchObject({ source: 'meeting.wav', team: 'core', duration: 2 });
    expect(typeof doc?.metadata.language).toBe('string');
  });

  it("GatewayAudioTranscriptLoader sends its mimeType as the file's type, over the File's own", async () => {
    const types: string[] = [];
    const connection = intercepting(await emulate(), async (request) => {
      if (request.url.endsWith('/audio/transcriptions')) {
        types.push(((await request.formData()).get('file') as File).type);
      }
      return undefined;
    });
    const audio = new File([wavWithSpeech('typed')], 'memo.bin', {
      type: 'application/octet-stream',
    });
    const loader = new GatewayAudioTranscriptLoader({
      ...connection,
      audio,
      mimeType: 'audio/wav',
    });
    const [doc] = await loader.load();
    expect(doc?.pageContent).toBe('typed');
    await new GatewayAudioTranscriptLoader({ ...connection, audio }).load();
    expect(types).toEqual(['audio/wav', 'application/octet-stream']);
  });

  it('GatewayOcrLoader gives a Document with confidence', async () => {
    const { connection } = await emulate();
    const loader = new GatewayOcrLoader({ ...connection, image: pngWithText('Invoice 42') });
    const [doc] = await loader.load();
    expect(doc?.pageContent).toBe('Invoice 42');
    expect(doc?.metadata.confidence).toBeGreaterThan(0);
    expect(doc?.metadata.confidence).toBeLessThanOrEqual(1);
  });

  it('refuses an image over 23 MiB before sending it', async () => {
    const { emulator, connection } = await emulate();
    const loader = new GatewayOcrLoader({
      ...connection,
      image: new Uint8Array(23 * 1024 * 1024 + 1),
    });
    const error = await loader.load().catch((caught: unknown) => caught);
    expect(isGatewayError(error)).toBe(true);
    expect(emulator.counters.requests.ocr).toBe(0);
  });
});

describe('GatewayTranslator', () => {
  it('translates strings and Documents inside an LCEL chain', async () => {
    const { connection } = await emulate();
    const translator = new GatewayTranslator({ ...connection, targetLanguage: 'de' });
    const chain = RunnableLambda.from((text: string) => text.trim()).pipe(translator);
    expect(await chain.invoke('  hello  ')).toBe('[de] hello');
    const doc = await new GatewayTranslator<Document>({
      ...connection,
      targetLanguage: 'de',
    }).invoke(new Document({ pageContent: 'hello', metadata: { source: 'a.txt' } }));
    expect(doc).toBeInstanceOf(Document);
    expect(doc.pageContent).toBe('[de] hello');
    expect(doc.metadata).toMatchObject({ source: 'a.txt', target_language: 'de' });
    const batch = await translator.batch(['a', 'b']);
    expect(batch).toEqual(['[de] a', '[de] b']);
  });

  it('splits text over 4096 bytes at paragraph boundaries and keeps them', async () => {
    const { emulator, connection } = await emulate();
    const translator = new GatewayTranslator({ ...connection, targetLanguage: 'de' });
    const paragraph = 'word '.repeat(500).trim();
    const text = [paragraph, paragraph, paragraph].join('\n\n');
    const translated = await translator.invoke(text);
    expect(translated.split('\n\n')).toHaveLength(3);
    expect(translated.split('\n\n').every((part) => part.startsWith('[de] word'))).toBe(true);
    // 2 500-byte paragraphs: two do not fit in one 4 096-byte request.
    expect(emulator.counters.requests.translations).toBe(3);
  });
});

describe('GatewayTranslator: its languages', () => {
  it('a language that is no language code is refused as the translator is made, naming its field', async () => {
    const { connection, emulator } = await emulate();
    const make = (fields: { targetLanguage: string; sourceLanguage?: string }) => {
      try {
        return new GatewayTranslator({ ...connection, ...fields });
      } catch (error) {
        return error;
      }
    };
    expect(make({ targetLanguage: 'german' })).toMatchObject({
      code: 'invalid_request_error',
      field: 'targetLanguage',
      message: expect.stringMatching(/^targetLanguage: "german" is not a language code/),
    });
    expect(make({ targetLanguage: 'de', sourceLanguage: 'English' })).toMatchObject({
      field: 'sourceLanguage',
      message: expect.stringMatching(/^sourceLanguage: "English" is not a language code/),
    });
    expect(isGatewayError(make({ targetLanguage: 'german' }))).toBe(true);
    expect(make({ targetLanguage: 'pt-BR', sourceLanguage: 'uk' })).toBeInstanceOf(
      GatewayTranslator,
    );
    expect(emulator.counters.requests.translations).toBe(0);
  });

  it("a call's refusal names the translator's field, not the wire's", async () => {
    const { connection, emulator } = await emulate();
    const translator = new GatewayTranslator({ ...connection, targetLanguage: 'de' });
    translator.targetLanguage = 'german';
    await expect(translator.invoke('hello')).rejects.toMatchObject({
      code: 'invalid_request_error',
      field: 'targetLanguage',
      message: expect.stringMatching(/^targetLanguage: "german" is not a language code/),
    });
    expect(emulator.counters.requests.translations).toBe(0);
  });
});

describe('GatewayTranslator: an ended call', () => {
  it("a call's timeout and signal reject with GatewayError timeout / aborted, and callbacks see it", async () => {
    const { emulator, connection } = await emulate();
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'translations', ms: 5000, times: 3 });
    const translator = new GatewayTranslator({
      ...connection,
      targetLanguage: 'de',
      maxRetries: 0,
    });
    const recorded: unknown[] = [];
    const callbacks = [{ handleChainError: (error: unknown) => void recorded.push(error) }];
    const timedOut = await caught(translator.invoke('hello', { timeout: 50, callbacks }));
    expect(isGatewayError(timedOut) && timedOut.code).toBe('timeout');
    expect(recorded).toEqual([timedOut]);

    const controller = new AbortController();
    const aborted = caught(translator.invoke('hello', { signal: controller.signal }));
    await untilRequests(emulator, 2, { endpoint: 'translations' });
    controller.abort();
    const error = await aborted;
    expect(isGatewayError(error) && error.code).toBe('aborted');
  });
});

describe('splitForTranslation', () => {
  it('keeps every piece under the limit and the text whole', () => {
    const text = `${'Перше речення. '.repeat(200)}\n\n${'x'.repeat(5000)}`;
    const pieces = splitForTranslation(text, 4096);
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces)
      expect(new TextEncoder().encode(piece).length).toBeLessThanOrEqual(4096);
  });
});
