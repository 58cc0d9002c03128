// The fields of the classes that are not a chat model are wholly known (their connection fields,
// their own, LangChain's base ones): an unknown one is refused before any request, naming the
// closest known one, as GatewayChatModel's fields are. A typo would otherwise do nothing: 768
// values for `dimension: 128`, no deadline for `timeoutMS: 1`.
import type { Emulator } from '@infergate/emulator';
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import {
  createGatewayTools,
  createOcrTool,
  createTranscribeTool,
  createTranslateTool,
  GatewayAudioTranscriptLoader,
  GatewayEmbeddings,
  GatewayOcrLoader,
  GatewayTranslator,
  isGatewayError,
} from '../src/index';

const MODEL = 'multilingual-e5-base';
const PNG = pngWithText('Invoice 42');
const WAV = wavWithSpeech('hello from the meeting');

/** Every request the emulator served, /capabilities and /models included. */
const requestsSeen = (emulator: Emulator) =>
  Object.values(emulator.counters.requests).reduce((sum, count) => sum + count, 0);

/** The refusal of a typo given to `make`, then the class's entry point run: nothing sent. */
async function refusedBeforeAnyRequest(
  make: (connection: { baseURL: string; apiKey: string; fetch: typeof fetch }) => unknown,
) {
  const { connection, emulator } = await emulate();
  const error = await caught(async () => make(connection), isGatewayError);
  expect(requestsSeen(emulator)).toBe(0);
  expect(error.code).toBe('configuration_error');
  return error;
}

describe('new GatewayEmbeddings({...})', () => {
  it.each([
    [{ dimension: 128 }, 'dimension', 'did you mean `dimensions`?'],
    [{ timeoutMS: 1 }, 'timeoutMS', 'did you mean `timeout`?'],
    [{ modle: MODEL }, 'modle', 'did you mean `model`?'],
    [{ timeoutMs: 1 }, 'timeoutMs', 'use `timeout`'],
  ])('refuses %o before embedQuery sends anything', async (fields, key, hint) => {
    const error = await refusedBeforeAnyRequest(async (connection) =>
      new GatewayEmbeddings({ model: MODEL, ...connection, ...(fields as object) }).embedQuery('a'),
    );
    expect(error.field).toBe(key);
    expect(error.message).toContain(`unknown option \`${key}\` in new GatewayEmbeddings — ${hint}`);
  });

  it('refuses a typo before embedDocuments sends anything', async () => {
    const error = await refusedBeforeAnyRequest(async (connection) =>
      new GatewayEmbeddings({
        model: MODEL,
        ...connection,
        dimesions: 256,
      } as never).embedDocuments(['a', 'b']),
    );
    expect(error.message).toContain('did you mean `dimensions`?');
  });

  it("takes the right key and LangChain's own maxConcurrency", async () => {
    const { connection } = await emulate();
    const embeddings = new GatewayEmbeddings({
      ...connection,
      model: MODEL,
      dimensions: 128,
      timeout: 30_000,
      maxRetries: 1,
      maxConcurrency: 2,
    });
    expect(await embeddings.embedQuery('a')).toHaveLength(128);
  });
});

describe('the service tools', () => {
  it.each([
    ['createTranslateTool', () => createTranslateTool, 'timeoutMS', 'did you mean `timeout`?'],
    ['createOcrTool', () => createOcrTool, 'resolveMedai', 'did you mean `resolveMedia`?'],
    ['createTranscribeTool', () => createTranscribeTool, 'apikey', 'did you mean `apiKey`?'],
  ])('%s refuses a typo before tool.invoke sends anything', async (where, create, key, hint) => {
    const input = { text: 'hi', target_language: 'fr', image: PNG, audio: WAV };
    const error = await refusedBeforeAnyRequest(async (connection) =>
      (create() as typeof createTranslateTool)({ ...connection, [key]: 1 }).invoke(input as never),
    );
    expect(error.field).toBe(key);
    expect(error.message).toContain(`unknown option \`${key}\` in ${where} — ${hint}`);
  });

  it('createGatewayTools refuses a typo before reading the services', async () => {
    const error = await refusedBeforeAnyRequest((connection) =>
      createGatewayTools({ ...connection, inclde: ['translate'] } as never),
    );
    expect(error.message).toContain('unknown option `inclde` in createGatewayTools');
    expect(error.message).toContain('did you mean `include`?');
  });

  it.each([
    [
      ['translat'],
      'unknown option `translat` in createGatewayTools include — did you mean `translate`?',
    ],
    [['ocr', 'OCR'], 'unknown option `OCR` in createGatewayTools include — did you mean `ocr`?'],
    [
      'translate,ocr',
      'include (model setting) must be an array of tool names (translate, ocr, transcribe), got a string',
    ],
  ])('createGatewayTools refuses include %j before any request', async (include, message) => {
    const error = await refusedBeforeAnyRequest((connection) =>
      createGatewayTools({ ...connection, include } as never),
    );
    expect(error.code).toBe('configuration_error');
    expect(error.message).toContain(message);
  });

  it('createGatewayTools still takes include and resolveMedia', async () => {
    const { connection } = await emulate();
    const tools = await createGatewayTools({
      ...connection,
      include: ['translate', 'ocr'],
      resolveMedia: () => PNG,
    });
    expect(tools.map((tool) => tool.name)).toEqual(['translate', 'ocr']);
    const ocr = tools[1] as ReturnType<typeof createOcrTool>;
    expect(await ocr.invoke({ image: 'scan.png' })).toBe('Invoice 42');
  });
});

describe('the loaders', () => {
  it('new GatewayOcrLoader refuses a typo before load sends anything', async () => {
    const error = await refusedBeforeAnyRequest((connection) =>
      new GatewayOcrLoader({ ...connection, image: PNG, metdata: { a: 1 } } as never).load(),
    );
    expect(error.message).toContain(
      'unknown option `metdata` in new GatewayOcrLoader — did you mean `metadata`?',
    );
  });

  it('new GatewayAudioTranscriptLoader refuses a typo before load sends anything', async () => {
    const error = await refusedBeforeAnyRequest((connection) =>
      new GatewayAudioTranscriptLoader({
        ...connection,
        audio: WAV,
        langauge: 'en',
      } as never).load(),
    );
    expect(error.message).toContain(
      'unknown option `langauge` in new GatewayAudioTranscriptLoader — did you mean `language`?',
    );
  });
});

describe('new GatewayTranslator({...})', () => {
  it.each([
    [
      { targetLanguage: 'uk', targetLanguag: 'uk' },
      'targetLanguag',
      'did you mean `targetLanguage`?',
    ],
    [{ targetLanguage: 'uk', sourceLang: 'en' }, 'sourceLang', 'did you mean `sourceLanguage`?'],
    [{ targetLanguage: 'uk', timeoutMs: 1 }, 'timeoutMs', 'use `timeout`'],
  ])('refuses %o before invoke sends anything', async (fields, key, hint) => {
    const error = await refusedBeforeAnyRequest(async (connection) =>
      new GatewayTranslator({ ...connection, ...(fields as { targetLanguage: string }) }).invoke(
        'hello',
      ),
    );
    expect(error.field).toBe(key);
    expect(error.message).toContain(`unknown option \`${key}\` in new GatewayTranslator — ${hint}`);
  });

  it('refuses a typo of targetLanguage for the typo, not for the missing language', async () => {
    const error = await refusedBeforeAnyRequest(
      async (connection) => new GatewayTranslator({ ...connection, targetLanguag: 'uk' } as never),
    );
    expect(error.message).toContain('did you mean `targetLanguage`?');
  });

  it('takes its own fields and the connection ones', async () => {
    const { connection } = await emulate();
    const translator = new GatewayTranslator({
      ...connection,
      targetLanguage: 'uk',
      sourceLanguage: 'en',
      timeout: 30_000,
      maxRetries: 1,
    });
    expect(await translator.invoke('hello')).toBe('[uk] hello');
  });
});
