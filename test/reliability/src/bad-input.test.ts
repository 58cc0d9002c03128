import type { ChatRequest, TranslationRequest } from '@infergate/core';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { embedMany, generateText, transcribe } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { createCell } from './harness/cell';
import { EMBED_ENGINE, PNG, toBase64, WAV } from './harness/fixtures';
import { writeResult } from './harness/results';
import { classify, Kit, type Outcome, type Surface } from './harness/surfaces';

/**
 * Invalid inputs drawn from the spec's limits, each through core and both adapters (where the
 * adapter's API can express it): a clear error naming the field and the limit, and no request at
 * the endpoint. The boundary values themselves succeed.
 */

type Call = (kit: Kit) => Promise<unknown>;

interface Row {
  id: string;
  endpoint: 'chat' | 'embeddings' | 'translations' | 'ocr' | 'transcriptions';
  /** What is wrong (or, for a boundary row, what is exactly at the limit). */
  input: string;
  /** `invalid`: must be refused before sending; `boundary`: must succeed. */
  kind: 'invalid' | 'boundary';
  /** The error message must name one of these (the field as the surface calls it). */
  fields?: string[];
  /** …and contain this (the limit or the allowed values; any of a list). */
  limit?: string | string[];
  core?: Call;
  langchain?: Call;
  'ai-sdk'?: Call;
  /** Why an adapter has no cell for this row. */
  note?: string;
}

const MIB23 = 23 * 1024 * 1024;
const ascii = (n: number) => 'a'.repeat(n);
const twoByte = (n: number) => 'é'.repeat(n); // 2 bytes each in UTF-8
const user = (content: string) => [{ role: 'user' as const, content }];

/** A WAV file of exactly `bytes` bytes: a short one saying 'x', then zeros. */
function audio(bytes: number): Uint8Array {
  const wav = new Uint8Array(bytes);
  wav.set(wavWithSpeech('x', { seconds: 0.1 }).subarray(0, bytes));
  return wav;
}

const chat =
  (req: Partial<ChatRequest> & Record<string, unknown>): Call =>
  (kit) =>
    kit.core().chat({ model: 'community/general', messages: user('hi'), ...req } as ChatRequest);
const embed =
  (input: unknown, extra: Record<string, unknown> = {}): Call =>
  (kit) =>
    kit.core().embed({ model: EMBED_ENGINE, input, ...extra } as never);
const translate =
  (req: Record<string, unknown>): Call =>
  (kit) =>
    kit.core().translate({ input: 'hello', target_language: 'uk', ...req } as TranslationRequest);
const lcTranslate =
  (input: Record<string, unknown>): Call =>
  (kit) =>
    kit.lcTranslate().invoke({ text: 'hello', target_language: 'uk', ...input } as never);
const aiTranslate =
  (input: Record<string, unknown>): Call =>
  async (kit) =>
    await kit.aiTranslate().execute!({ text: 'hello', target_language: 'uk', ...input } as never, {
      toolCallId: 'c',
      messages: [],
      context: {},
    });
const aiOcr =
  (image: string): Call =>
  async (kit) =>
    await kit.aiOcr().execute!({ image }, { toolCallId: 'c', messages: [], context: {} });
const lcEmbed =
  (texts: string[], fields: Record<string, unknown> = {}): Call =>
  async (kit) => {
    const { GatewayEmbeddings } = await import('@infergate/langchain');
    return new GatewayEmbeddings({
      model: EMBED_ENGINE,
      ...kit.lcFields(),
      ...fields,
    }).embedDocuments(texts);
  };
const aiEmbed =
  (values: string[], options: Record<string, unknown> = {}): Call =>
  (kit) =>
    embedMany({
      model: kit.aiEmbedding(),
      values,
      providerOptions: { infergate: options } as never,
    });
const aiTranscribe =
  (bytes: Uint8Array, options: Record<string, unknown> = {}): Call =>
  (kit) =>
    transcribe({
      model: kit.aiTranscription(),
      audio: bytes,
      providerOptions: { infergate: options } as never,
    });

const ROWS: Row[] = [
  // ------------------------------------------------------------------ chat
  {
    id: 'chat-empty-messages',
    endpoint: 'chat',
    input: 'messages: []',
    kind: 'invalid',
    fields: ['messages'],
    limit: ['at least 1', 'must not be empty'],
    core: chat({ messages: [] }),
    langchain: (kit) => kit.lcModel().invoke([]),
    'ai-sdk': (kit) => generateText({ model: kit.aiModel(), messages: [] }),
  },
  {
    id: 'chat-one-message',
    endpoint: 'chat',
    input: 'exactly 1 message',
    kind: 'boundary',
    core: chat({}),
    langchain: (kit) => kit.lcModel().invoke('hi'),
    'ai-sdk': (kit) => generateText({ model: kit.aiModel(), prompt: 'hi' }),
  },
  {
    id: 'chat-messages-not-array',
    endpoint: 'chat',
    input: 'messages: "hi" (a string)',
    kind: 'invalid',
    fields: ['messages'],
    limit: 'array',
    core: chat({ messages: 'hi' as never }),
    note: 'adapters build the messages array themselves',
  },
  {
    id: 'chat-empty-model',
    endpoint: 'chat',
    input: "model: ''",
    kind: 'invalid',
    fields: ['model'],
    limit: ['non-empty', 'needs a model id'],
    core: chat({ model: '' }),
    'ai-sdk': (kit) => generateText({ model: kit.provider()(''), prompt: 'hi' }),
    langchain: async (kit) => {
      const { GatewayChatModel } = await import('@infergate/langchain');
      return new GatewayChatModel({ model: '', ...kit.lcFields() }).invoke('hi');
    },
  },
  {
    id: 'chat-bad-role',
    endpoint: 'chat',
    input: "role: 'bot'",
    kind: 'invalid',
    fields: ['messages[0].role'],
    limit: 'system, user, assistant, tool',
    core: chat({ messages: [{ role: 'bot', content: 'hi' }] as never }),
    note: 'adapters map their own message types to roles',
  },
  {
    id: 'chat-content-number',
    endpoint: 'chat',
    input: 'content: 42',
    kind: 'invalid',
    fields: ['messages[0].content'],
    limit: 'string',
    core: chat({ messages: [{ role: 'user', content: 42 }] as never }),
  },
  {
    id: 'chat-message-not-object',
    endpoint: 'chat',
    input: "messages: ['hi']",
    kind: 'invalid',
    fields: ['messages[0]'],
    limit: 'object',
    core: chat({ messages: ['hi'] as never }),
  },
  {
    id: 'chat-response-format-xml',
    endpoint: 'chat',
    input: "response_format: {type: 'xml'}",
    kind: 'invalid',
    fields: ['response_format.type'],
    limit: 'json_schema',
    core: chat({ response_format: { type: 'xml' } as never }),
    langchain: (kit) => kit.lcModel().invoke('hi', { response_format: { type: 'xml' } } as never),
    note: "AI SDK responseFormat has only 'text' and 'json'",
  },
  {
    id: 'chat-response-format-text',
    endpoint: 'chat',
    input: "response_format: {type: 'text'}",
    kind: 'boundary',
    core: chat({ response_format: { type: 'text' } }),
    langchain: (kit) => kit.lcModel().invoke('hi', { response_format: { type: 'text' } } as never),
  },
  {
    id: 'chat-json-schema-missing',
    endpoint: 'chat',
    input: "response_format: {type: 'json_schema'} without json_schema",
    kind: 'invalid',
    fields: ['response_format.json_schema'],
    limit: 'schema',
    core: chat({ response_format: { type: 'json_schema' } as never }),
    langchain: (kit) =>
      kit.lcModel().invoke('hi', { response_format: { type: 'json_schema' } } as never),
  },
  {
    id: 'chat-tool-bad-type',
    endpoint: 'chat',
    input: "tools: [{type: 'retrieval'}]",
    kind: 'invalid',
    fields: ['tools[0]'],
    limit: 'function',
    core: chat({ tools: [{ type: 'retrieval' }] as never }),
  },
  {
    id: 'chat-tool-no-name',
    endpoint: 'chat',
    input: "tools: [{type:'function', function:{name:''}}]",
    kind: 'invalid',
    fields: ['tools[0]'],
    limit: 'name',
    core: chat({ tools: [{ type: 'function', function: { name: '' } }] }),
  },
  // ------------------------------------------------------------------ embeddings
  {
    id: 'embed-zero-texts',
    endpoint: 'embeddings',
    input: 'input: []',
    kind: 'invalid',
    fields: ['input'],
    limit: '1',
    core: embed([]),
    note: 'adapters batch: an empty list gives [] without a request',
  },
  {
    id: 'embed-65-texts',
    endpoint: 'embeddings',
    input: '65 texts in one request',
    kind: 'invalid',
    fields: ['input'],
    limit: '64',
    core: embed(Array.from({ length: 65 }, () => 'x')),
    note: 'adapters split into requests of ≤ 64',
  },
  {
    id: 'embed-64-texts',
    endpoint: 'embeddings',
    input: '64 texts',
    kind: 'boundary',
    core: embed(Array.from({ length: 64 }, () => 'x')),
    langchain: lcEmbed(Array.from({ length: 64 }, () => 'x')),
    'ai-sdk': aiEmbed(Array.from({ length: 64 }, () => 'x')),
  },
  {
    id: 'embed-empty-text',
    endpoint: 'embeddings',
    input: "input: ['ok', '']",
    kind: 'invalid',
    fields: ['input[1]', 'texts[1]', 'values[1]', '[1]'],
    limit: '1 character',
    core: embed(['ok', '']),
    langchain: lcEmbed(['ok', '']),
    'ai-sdk': aiEmbed(['ok', '']),
  },
  {
    id: 'embed-text-32769',
    endpoint: 'embeddings',
    input: 'one text of 32 769 bytes (multilingual engine)',
    kind: 'invalid',
    fields: ['input', 'texts[0]', '[0]', 'text'],
    limit: '32768',
    core: embed([ascii(32_769)]),
    langchain: lcEmbed([ascii(32_769)]),
    'ai-sdk': aiEmbed([ascii(32_769)]),
  },
  {
    id: 'embed-text-32768',
    endpoint: 'embeddings',
    input: 'one text of 32 768 bytes',
    kind: 'boundary',
    core: embed([ascii(32_768)]),
    langchain: lcEmbed([ascii(32_768)]),
    'ai-sdk': aiEmbed([ascii(32_768)]),
  },
  {
    id: 'embed-multibyte-32769',
    endpoint: 'embeddings',
    input: "16 384 'é' + 'a' (32 769 bytes, 16 385 chars)",
    kind: 'invalid',
    fields: ['input', 'texts[0]', '[0]', 'text'],
    limit: '32768',
    core: embed([`${twoByte(16_384)}a`]),
    langchain: lcEmbed([`${twoByte(16_384)}a`]),
    'ai-sdk': aiEmbed([`${twoByte(16_384)}a`]),
  },
  {
    id: 'embed-total-65537',
    endpoint: 'embeddings',
    input: '3 texts, 65 537 bytes in total',
    kind: 'invalid',
    fields: ['input'],
    limit: '65536',
    core: embed([ascii(32_768), ascii(32_768), 'a']),
    note: 'adapters split by bytes',
  },
  {
    id: 'embed-total-65536',
    endpoint: 'embeddings',
    input: '2 texts, 65 536 bytes in total',
    kind: 'boundary',
    core: embed([ascii(32_768), ascii(32_768)]),
  },
  {
    id: 'embed-dimensions-100',
    endpoint: 'embeddings',
    input: 'dimensions: 100 (multilingual: 128/256/512/768)',
    kind: 'invalid',
    fields: ['dimensions'],
    limit: '768',
    core: embed(['x'], { dimensions: 100 }),
    langchain: lcEmbed(['x'], { dimensions: 100 }),
    'ai-sdk': aiEmbed(['x'], { dimensions: 100 }),
  },
  {
    id: 'embed-dimensions-128',
    endpoint: 'embeddings',
    input: 'dimensions: 128',
    kind: 'boundary',
    core: embed(['x'], { dimensions: 128 }),
    langchain: lcEmbed(['x'], { dimensions: 128 }),
    'ai-sdk': aiEmbed(['x'], { dimensions: 128 }),
  },
  {
    id: 'embed-dimensions-fraction',
    endpoint: 'embeddings',
    input: 'dimensions: 1.5',
    kind: 'invalid',
    fields: ['dimensions'],
    limit: 'integer',
    core: embed(['x'], { dimensions: 1.5 }),
    langchain: lcEmbed(['x'], { dimensions: 1.5 }),
    'ai-sdk': aiEmbed(['x'], { dimensions: 1.5 }),
    note: 'AI SDK: providerOptions.infergate.dimensions',
  },
  {
    id: 'embed-input-type',
    endpoint: 'embeddings',
    input: "input_type: 'passage'",
    kind: 'invalid',
    fields: ['input_type', 'inputType'],
    limit: 'query',
    core: embed(['x'], { input_type: 'passage' }),
    'ai-sdk': aiEmbed(['x'], { inputType: 'passage' }),
    note: 'AI SDK: providerOptions.infergate.inputType',
  },
  {
    id: 'embed-input-number',
    endpoint: 'embeddings',
    input: 'input: 42',
    kind: 'invalid',
    fields: ['input'],
    limit: 'string',
    core: embed(42),
  },
  // ------------------------------------------------------------------ translation
  {
    id: 'tr-empty',
    endpoint: 'translations',
    input: "input: ''",
    kind: 'invalid',
    fields: ['input', 'text'],
    limit: '1',
    core: translate({ input: '' }),
    langchain: lcTranslate({ text: '' }),
    'ai-sdk': aiTranslate({ text: '' }),
  },
  {
    id: 'tr-one-char',
    endpoint: 'translations',
    input: "input: 'a' (1 character)",
    kind: 'boundary',
    core: translate({ input: 'a' }),
    langchain: lcTranslate({ text: 'a' }),
    'ai-sdk': aiTranslate({ text: 'a' }),
  },
  {
    id: 'tr-4097',
    endpoint: 'translations',
    input: '4 097 ASCII bytes',
    kind: 'invalid',
    fields: ['input', 'text'],
    limit: '4096',
    core: translate({ input: ascii(4097) }),
    langchain: lcTranslate({ text: ascii(4097) }),
    'ai-sdk': aiTranslate({ text: ascii(4097) }),
  },
  {
    id: 'tr-4096',
    endpoint: 'translations',
    input: '4 096 ASCII bytes',
    kind: 'boundary',
    core: translate({ input: ascii(4096) }),
    langchain: lcTranslate({ text: ascii(4096) }),
    'ai-sdk': aiTranslate({ text: ascii(4096) }),
  },
  {
    id: 'tr-multibyte-4098',
    endpoint: 'translations',
    input: "2 049 'é' (4 098 bytes, 2 049 chars)",
    kind: 'invalid',
    fields: ['input', 'text'],
    limit: '4096',
    core: translate({ input: twoByte(2049) }),
    langchain: lcTranslate({ text: twoByte(2049) }),
    'ai-sdk': aiTranslate({ text: twoByte(2049) }),
  },
  {
    id: 'tr-multibyte-4096',
    endpoint: 'translations',
    input: "2 048 'é' (4 096 bytes)",
    kind: 'boundary',
    core: translate({ input: twoByte(2048) }),
    langchain: lcTranslate({ text: twoByte(2048) }),
    'ai-sdk': aiTranslate({ text: twoByte(2048) }),
  },
  {
    id: 'tr-lang-word',
    endpoint: 'translations',
    input: "target_language: 'english'",
    kind: 'invalid',
    fields: ['target_language', 'targetLanguage'],
    limit: 'language code',
    core: translate({ target_language: 'english' }),
    langchain: lcTranslate({ target_language: 'english' }),
    'ai-sdk': aiTranslate({ target_language: 'english' }),
  },
  {
    id: 'tr-lang-one-letter',
    endpoint: 'translations',
    input: "target_language: 'e'",
    kind: 'invalid',
    fields: ['target_language', 'targetLanguage'],
    limit: 'language code',
    core: translate({ target_language: 'e' }),
    langchain: lcTranslate({ target_language: 'e' }),
    'ai-sdk': aiTranslate({ target_language: 'e' }),
  },
  {
    id: 'tr-lang-underscore',
    endpoint: 'translations',
    input: "target_language: 'en_US'",
    kind: 'invalid',
    fields: ['target_language', 'targetLanguage'],
    limit: 'language code',
    core: translate({ target_language: 'en_US' }),
    langchain: lcTranslate({ target_language: 'en_US' }),
    'ai-sdk': aiTranslate({ target_language: 'en_US' }),
  },
  {
    id: 'tr-lang-subtag-9',
    endpoint: 'translations',
    input: "target_language: 'en-abcdefghi' (9-char subtag)",
    kind: 'invalid',
    fields: ['target_language', 'targetLanguage'],
    limit: 'language code',
    core: translate({ target_language: 'en-abcdefghi' }),
    langchain: lcTranslate({ target_language: 'en-abcdefghi' }),
    'ai-sdk': aiTranslate({ target_language: 'en-abcdefghi' }),
  },
  {
    id: 'tr-lang-subtag-8',
    endpoint: 'translations',
    input: "target_language: 'en-abcdefgh' (8-char subtag)",
    kind: 'boundary',
    core: translate({ target_language: 'en-abcdefgh' }),
    langchain: lcTranslate({ target_language: 'en-abcdefgh' }),
    'ai-sdk': aiTranslate({ target_language: 'en-abcdefgh' }),
  },
  {
    id: 'tr-lang-region',
    endpoint: 'translations',
    input: "target_language: 'pt-BR', 3-letter 'ukr'",
    kind: 'boundary',
    core: translate({ target_language: 'pt-BR', source_language: 'ukr' }),
    langchain: lcTranslate({ target_language: 'pt-BR', source_language: 'ukr' }),
    'ai-sdk': aiTranslate({ target_language: 'pt-BR', source_language: 'ukr' }),
  },
  {
    id: 'tr-source-digits',
    endpoint: 'translations',
    input: "source_language: 'x1'",
    kind: 'invalid',
    fields: ['source_language', 'sourceLanguage'],
    limit: 'language code',
    core: translate({ source_language: 'x1' }),
    langchain: lcTranslate({ source_language: 'x1' }),
    'ai-sdk': aiTranslate({ source_language: 'x1' }),
  },
  {
    id: 'tr-unknown-field',
    endpoint: 'translations',
    input: "formality: 'high' (no other fields allowed)",
    kind: 'invalid',
    fields: ['formality'],
    limit: 'not allowed',
    core: translate({ formality: 'high' }),
    note: 'adapter inputs have no free-form fields',
  },
  {
    id: 'tr-input-number',
    endpoint: 'translations',
    input: 'input: 42',
    kind: 'invalid',
    fields: ['input', 'text'],
    limit: 'string',
    core: translate({ input: 42 }),
    langchain: lcTranslate({ text: 42 }),
  },
  // ------------------------------------------------------------------ OCR
  {
    id: 'ocr-bad-char',
    endpoint: 'ocr',
    input: "image: 'abc$' (not base64)",
    kind: 'invalid',
    fields: ['image'],
    limit: 'base64',
    core: (kit) => kit.core().ocr({ image: 'abc$' }),
    langchain: (kit) => kit.lcOcr().invoke({ image: 'abc$' }),
    'ai-sdk': aiOcr('abc$'),
  },
  {
    id: 'ocr-whitespace',
    endpoint: 'ocr',
    input: "image: 'iVBO Rw0K' (whitespace: removed before sending, as line breaks are)",
    kind: 'boundary',
    core: (kit) => kit.core().ocr({ image: 'iVBO Rw0K' }),
    langchain: (kit) => kit.lcOcr().invoke({ image: 'iVBO Rw0K' }),
    'ai-sdk': aiOcr('iVBO Rw0K'),
  },
  {
    id: 'ocr-unpadded',
    endpoint: 'ocr',
    input: "image: 'aGVsbG8' (no '=' padding: added before sending)",
    kind: 'boundary',
    core: (kit) => kit.core().ocr({ image: 'aGVsbG8' }),
    langchain: (kit) => kit.lcOcr().invoke({ image: 'aGVsbG8' }),
    'ai-sdk': aiOcr('aGVsbG8'),
  },
  {
    id: 'ocr-bad-padding',
    endpoint: 'ocr',
    input: "image: 'iVBORw0=A' (padding inside)",
    kind: 'invalid',
    fields: ['image'],
    limit: 'base64',
    core: (kit) => kit.core().ocr({ image: 'iVBORw0=A' }),
    langchain: (kit) => kit.lcOcr().invoke({ image: 'iVBORw0=A' }),
    'ai-sdk': aiOcr('iVBORw0=A'),
  },
  {
    id: 'ocr-empty',
    endpoint: 'ocr',
    input: 'image: 0 bytes',
    kind: 'invalid',
    fields: ['image'],
    limit: ['1 byte', '>=1'],
    core: (kit) => kit.core().ocr({ image: new Uint8Array() }),
    langchain: (kit) => kit.lcOcr().invoke({ image: '' }),
    'ai-sdk': aiOcr(''),
  },
  {
    id: 'ocr-one-byte',
    endpoint: 'ocr',
    input: 'image: 1 byte',
    kind: 'boundary',
    core: (kit) => kit.core().ocr({ image: new Uint8Array([0x89]) }),
    langchain: (kit) => kit.lcOcr().invoke({ image: 'iQ==' }),
    'ai-sdk': aiOcr('iQ=='),
  },
  {
    id: 'ocr-oversize',
    endpoint: 'ocr',
    input: 'image: 23 MiB + 1 byte',
    kind: 'invalid',
    fields: ['image'],
    limit: String(MIB23),
    core: (kit) => kit.core().ocr({ image: new Uint8Array(MIB23 + 1) }),
    langchain: (kit) => kit.lcOcr().invoke({ image: toBase64(new Uint8Array(MIB23 + 1)) }),
    'ai-sdk': aiOcr(toBase64(new Uint8Array(MIB23 + 1))),
  },
  {
    id: 'ocr-max',
    endpoint: 'ocr',
    input: 'image: exactly 23 MiB',
    kind: 'boundary',
    core: (kit) => {
      const image = new Uint8Array(MIB23);
      image.set(PNG);
      return kit.core().ocr({ image });
    },
  },
  // ------------------------------------------------------------------ transcription
  {
    id: 'stt-png',
    endpoint: 'transcriptions',
    input: 'audio: PNG bytes',
    kind: 'invalid',
    fields: ['audio'],
    limit: 'WAV, MP3 or FLAC',
    core: (kit) => kit.core().transcribe({ audio: PNG }),
    langchain: (kit) => kit.lcTranscribe().invoke({ audio: toBase64(PNG) }),
    'ai-sdk': aiTranscribe(PNG),
  },
  {
    id: 'stt-empty',
    endpoint: 'transcriptions',
    input: 'audio: 0 bytes',
    kind: 'invalid',
    fields: ['audio'],
    limit: '0 bytes',
    core: (kit) => kit.core().transcribe({ audio: new Uint8Array() }),
    'ai-sdk': aiTranscribe(new Uint8Array()),
  },
  {
    id: 'stt-oversize',
    endpoint: 'transcriptions',
    input: 'audio: 23 MiB + 1 byte WAV',
    kind: 'invalid',
    fields: ['audio'],
    limit: String(MIB23),
    core: (kit) => kit.core().transcribe({ audio: audio(MIB23 + 1) }),
    langchain: (kit) => kit.lcTranscribe().invoke({ audio: toBase64(audio(MIB23 + 1)) }),
    'ai-sdk': aiTranscribe(audio(MIB23 + 1)),
  },
  {
    id: 'stt-max',
    endpoint: 'transcriptions',
    input: 'audio: exactly 23 MiB WAV',
    kind: 'boundary',
    core: (kit) => kit.core().transcribe({ audio: audio(MIB23) }),
  },
  {
    id: 'stt-format-srt',
    endpoint: 'transcriptions',
    input: "response_format: 'srt'",
    kind: 'invalid',
    fields: ['response_format'],
    limit: 'text',
    core: (kit) => kit.core().transcribe({ audio: WAV, response_format: 'srt' } as never),
  },
  {
    id: 'stt-translate-string',
    endpoint: 'transcriptions',
    input: "translate: 'yes'",
    kind: 'invalid',
    fields: ['translate'],
    limit: 'boolean',
    core: (kit) => kit.core().transcribe({ audio: WAV, translate: 'yes' } as never),
    'ai-sdk': aiTranscribe(WAV, { translate: 'yes' }),
    note: 'AI SDK: providerOptions.infergate.translate',
  },
  {
    id: 'stt-language-empty',
    endpoint: 'transcriptions',
    input: "language: ''",
    kind: 'invalid',
    fields: ['language'],
    limit: 'language code',
    core: (kit) => kit.core().transcribe({ audio: WAV, language: '' }),
    langchain: (kit) => kit.lcTranscribe().invoke({ audio: toBase64(WAV), language: '' }),
  },
];

interface CellResult {
  surface: Surface;
  outcome: Outcome;
  endpointRequests: number;
  catalogRequests: number;
}

const results: { row: Row; cells: CellResult[] }[] = [];

async function runRow(row: Row): Promise<CellResult[]> {
  const cells: CellResult[] = [];
  for (const surface of ['core', 'langchain', 'ai-sdk'] as const) {
    const call = row[surface];
    if (!call) continue;
    const cell = await createCell();
    const kit = new Kit(cell, { maxRetries: 0, timeoutMs: 30_000 });
    let outcome: Outcome;
    try {
      await call(kit);
      outcome = { ok: true, value: 'ok' };
    } catch (error) {
      outcome = classify(error);
    }
    const requests = cell.emulator.counters.requests;
    cells.push({
      surface,
      outcome,
      endpointRequests: requests[row.endpoint],
      catalogRequests: requests.models + requests.capabilities,
    });
  }
  return cells;
}

function messageOf(outcome: Outcome): string {
  if (outcome.ok) return '';
  const error = outcome.error as { message?: unknown };
  return typeof error?.message === 'string' ? error.message : String(outcome.error);
}

afterAll(() => {
  writeResult('bad-input', {
    invalid: ROWS.filter((r) => r.kind === 'invalid').length,
    boundary: ROWS.filter((r) => r.kind === 'boundary').length,
    rows: results.map(({ row, cells }) => ({
      id: row.id,
      endpoint: row.endpoint,
      input: row.input,
      kind: row.kind,
      note: row.note,
      cells: Object.fromEntries(
        cells.map((c) => [
          c.surface,
          {
            result: c.outcome.ok
              ? 'success'
              : `${c.outcome.kind}${c.outcome.code ? `:${c.outcome.code}` : ''}`,
            message: messageOf(c.outcome).slice(0, 160),
            endpointRequests: c.endpointRequests,
            catalogRequests: c.catalogRequests,
          },
        ]),
      ),
    })),
  });
});

describe('bad input is refused before sending', () => {
  it('has at least 40 invalid inputs', () => {
    expect(ROWS.filter((r) => r.kind === 'invalid').length).toBeGreaterThanOrEqual(40);
  });

  it.each(ROWS.map((row) => [row.id, row] as const))('%s', async (_id, row) => {
    const cells = await runRow(row);
    results.push({ row, cells });
    for (const cell of cells) {
      const where = `${cell.surface}: ${cell.outcome.ok ? 'success' : messageOf(cell.outcome)}`;
      if (row.kind === 'boundary') {
        expect(cell.outcome.ok, where).toBe(true);
        continue;
      }
      expect(cell.outcome.ok, where).toBe(false);
      const message = messageOf(cell.outcome);
      expect(
        row.fields!.some((field) => message.includes(field)),
        `${where} — names none of ${row.fields!.join(', ')}`,
      ).toBe(true);
      if (row.limit) {
        const limits = Array.isArray(row.limit) ? row.limit : [row.limit];
        expect(
          limits.some((limit) => message.includes(limit)),
          `${where} — lacks ${limits.join(' / ')}`,
        ).toBe(true);
      }
      expect(cell.endpointRequests, `${where} — a request reached the endpoint`).toBe(0);
    }
  });
});

describe('AI SDK provider options', () => {
  // Was a DEFECT (ai-sdk): the message was only "invalid infergate provider options". Fixed: an
  // InvalidArgumentError naming the field path, the value and what is allowed.
  it('invalid dimensions / inputType / translate name the field and the allowed values', async () => {
    const cases: [Call, string, string][] = [
      [aiEmbed(['x'], { dimensions: 1.5 }), 'dimensions', 'integer'],
      [aiEmbed(['x'], { inputType: 'passage' }), 'inputType', 'query'],
      [aiTranscribe(WAV, { translate: 'yes' }), 'translate', 'boolean'],
    ];
    for (const [call, field, limit] of cases) {
      const cell = await createCell();
      const outcome = await call(new Kit(cell, { maxRetries: 0, timeoutMs: 30_000 })).then(
        () => ({ ok: true }) as Outcome,
        (error: unknown) => classify(error),
      );
      expect(outcome.ok).toBe(false);
      expect(messageOf(outcome)).toContain(field);
      expect(messageOf(outcome)).toContain(limit);
      expect(
        cell.emulator.counters.requests.embeddings + cell.emulator.counters.requests.transcriptions,
      ).toBe(0);
    }
  });
});
