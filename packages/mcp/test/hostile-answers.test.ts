/**
 * Gateway answers that core accepts but that do not fit a tool's declared `outputSchema` as sent
 * (nulls, numeric strings, a percentage where 0..1 is declared, `1e309`, wrong types, negative
 * counts, extra fields) still give a successful result: the MCP SDK's `Client` validates its
 * `structuredContent` against the schema `tools/list` gave (it throws on a mismatch), and the text
 * is kept. The answers are the emulator's own, rewritten by a fetch stub at the gateway boundary.
 */
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

/** Written as the JSON number `1e309`, which parses as Infinity (JSON.stringify cannot write it). */
const HUGE = '__1e309__';

type Answer = Record<string, unknown>;
interface Rewrite {
  /** The end of the gateway path whose JSON answer is rewritten (`/ocr`, `/capabilities`, …). */
  path: string;
  answer: (body: Answer) => Answer;
  /** The JSON request as the emulator gets it (to stand for a gateway that takes what it listed). */
  request?: (body: Answer) => Answer;
}

let rewrites: Rewrite[] = [];

/** The gateway's answer as the emulator gave it, then rewritten by the test's rules. */
const hostileFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const rule = rewrites.find((candidate) => url.pathname.endsWith(candidate.path));
  const sent =
    rule?.request && typeof init?.body === 'string'
      ? { ...init, body: JSON.stringify(rule.request(JSON.parse(init.body) as Answer)) }
      : init;
  const response = await fetch(input, sent);
  if (rule === undefined || !response.ok) return response;
  const body = JSON.stringify(rule.answer((await response.json()) as Answer));
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(body.replaceAll(`"${HUGE}"`, '1e309'), { status: 200, headers });
};

let harness: Harness;
let client: Client;
beforeAll(async () => {
  harness = await startHarness({
    // The catalog is read on every call, so each test sees its own rewritten catalog.
    server: { clientOptions: { fetch: hostileFetch, catalogTtlMs: 0 } },
  });
  client = await harness.connect();
  await client.listTools(); // the client keeps each tool's output validator
});
afterAll(() => harness.close());
beforeEach(() => {
  rewrites = [];
});

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const EXTRA = { usage: { total_tokens: 'many' }, debug: { node: 7 }, object: 42 };

/** Calls a tool through the SDK client (which validates the structured content) and checks it. */
async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(result.structuredContent).toBeDefined();
  return result;
}

describe('translate', () => {
  it.each([
    ['null (not detected)', null],
    ['a number', 42],
    ['an object', { code: 'en' }],
  ])('source_language %s is left out; the text is kept', async (_, sourceLanguage) => {
    rewrites = [
      {
        path: '/translations',
        answer: (body) => ({ ...body, ...EXTRA, source_language: sourceLanguage }),
      },
    ];
    const result = await call('translate', { text: 'Good morning', target_language: 'de' });
    expect(textOf(result)).toBe('[de] Good morning');
    expect(result.structuredContent).toEqual({ text: '[de] Good morning', target_language: 'de' });
  });
});

describe('ocr', () => {
  const image = { image_base64: base64(pngWithText('Invoice 42')) };
  it.each([
    ['a percentage, 98', 98, 0.98],
    ['a percentage, 100', 100, 1],
    ['a numeric string', '0.9', 0.9],
    ['a percentage as a string', ' 75 ', 0.75],
    ['1e309 (Infinity)', HUGE, undefined],
    ['negative', -0.2, undefined],
    ['above 100', 250, undefined],
    ['"NaN"', 'NaN', undefined],
    ['an empty string', '', undefined],
    ['null', null, undefined],
    ['a boolean', true, undefined],
  ])('confidence %s', async (_, confidence, expected) => {
    rewrites = [
      { path: '/ocr', answer: (body) => ({ ...body, ...EXTRA, confidence, language: null }) },
    ];
    const result = await call('ocr', image);
    expect(textOf(result)).toBe('Invoice 42');
    expect(result.structuredContent).toEqual(
      expected === undefined
        ? { text: 'Invoice 42' }
        : { text: 'Invoice 42', confidence: expected },
    );
  });
});

describe('transcribe', () => {
  const audio = { audio_base64: base64(wavWithSpeech('hello there')) };
  it.each([
    ['a numeric string', '3.2', 3.2],
    ['a number', 3.2, 3.2],
    ['1e309 (Infinity)', HUGE, undefined],
    ['negative', -1, undefined],
    ['words', 'three seconds', undefined],
    ['hexadecimal', '0x10', undefined],
    ['an object', { seconds: 3 }, undefined],
  ])('duration %s', async (_, duration, expected) => {
    rewrites = [
      {
        path: '/audio/transcriptions',
        answer: (body) => ({ ...body, ...EXTRA, duration, language: null }),
      },
    ];
    const result = await call('transcribe', audio);
    expect(textOf(result)).toBe('hello there');
    expect(result.structuredContent).toEqual(
      expected === undefined
        ? { text: 'hello there' }
        : { text: 'hello there', duration_seconds: expected },
    );
  });

  it('keeps translated_to and a language that is a string', async () => {
    rewrites = [{ path: '/audio/transcriptions', answer: (body) => ({ ...body, language: 'en' }) }];
    const result = await call('transcribe', { ...audio, translate: true });
    expect(result.structuredContent).toMatchObject({ language: 'en', translated_to: 'en' });
  });
});

/** A catalog whose entries carry every kind of value core lets through. */
function hostileModels(body: Answer): Answer {
  const data = body.data as Answer[];
  return {
    ...body,
    ...EXTRA,
    data: data.map((model, index) =>
      index === 0
        ? {
            ...model,
            ...EXTRA,
            capacity: HUGE,
            inflight: '3',
            available_nodes: -1,
            name: null,
            owned_by: 5,
            capabilities: ['chat', 1, null, 'streaming', { tools: true }],
          }
        : { ...model, capacity: 2.5, inflight: null, available_nodes: 'NaN' },
    ),
  };
}

function hostileServices(body: Answer): Answer {
  const data = body.data as Answer[];
  return {
    ...body,
    data: data.map((service) => {
      if (service.id === 'translation') {
        return { ...service, ...EXTRA, available_nodes: '2', name: null };
      }
      if (service.id === 'ocr') return { ...service, available_nodes: HUGE, name: 7 };
      if (service.id !== 'embeddings') return { ...service, engines: 'none' };
      const engines = service.engines as Answer[];
      return {
        ...service,
        engines: [
          { id: 7, name: 'a numeric id' },
          { id: null },
          'not an engine',
          ...engines.map((engine) => ({
            ...engine,
            ...EXTRA,
            name: null,
            dimensions: engine.id === 'all-minilm-l6-v2' ? '384' : ['768', null, HUGE, -1, 512.5],
          })),
        ],
      };
    }),
  };
}

describe('list_models', () => {
  it('leaves out what cannot be read, reads numeric strings, and never fails', async () => {
    rewrites = [
      { path: '/models', answer: hostileModels },
      { path: '/capabilities', answer: hostileServices },
    ];
    const result = await call('list_models', {});
    const { models, services } = result.structuredContent as {
      models: Answer[];
      services: Answer[];
    };
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    expect(models[0]).toEqual({
      id: 'community/general',
      capabilities: ['chat', 'streaming'],
      inflight: 3,
    });
    expect(models[1]).toEqual({
      id: 'community/plain',
      capabilities: ['chat'],
      owned_by: 'service-community',
      name: expect.any(String),
    });
    expect(services.find((service) => service.id === 'translation')).toEqual({
      id: 'translation',
      available: true,
      available_nodes: 2,
    });
    expect(services.find((service) => service.id === 'ocr')).toEqual({
      id: 'ocr',
      available: true,
    });
    expect(services.find((service) => service.id === 'embeddings')?.engines).toEqual([
      { id: 'multilingual-e5-base', dimensions: [768] },
      { id: 'all-minilm-l6-v2', dimensions: [384] },
    ]);
  });

  it('filters by capability over the readable capabilities', async () => {
    rewrites = [{ path: '/models', answer: hostileModels }];
    const result = await call('list_models', { capability: 'streaming' });
    const { models } = result.structuredContent as { models: { id: string }[] };
    expect(models.map((model) => model.id)).toContain('community/general');
    expect(models.map((model) => model.id)).not.toContain('community/plain');
  });

  it('the resources show the same readable catalog', async () => {
    rewrites = [
      { path: '/models', answer: hostileModels },
      { path: '/capabilities', answer: hostileServices },
    ];
    const read = async (uri: string) => {
      const { contents } = await client.readResource({ uri });
      return JSON.parse((contents[0] as { text: string }).text) as Answer[];
    };
    const listed = (await call('list_models', {})).structuredContent as {
      models: Answer[];
      services: Answer[];
    };
    expect(await read('infergate://models')).toEqual(listed.models);
    expect(await read('infergate://services')).toEqual(listed.services);
  });
});

describe('embed and similarity', () => {
  const embeddings = (body: Answer): Answer => ({ ...body, ...EXTRA, model: 7 });
  it('a catalog with numeric engine ids and an answer with extra fields', async () => {
    rewrites = [
      { path: '/capabilities', answer: hostileServices },
      { path: '/embeddings', answer: embeddings },
    ];
    const embed = await call('embed', { texts: ['one', 'two'], engine: 'all-minilm-l6-v2' });
    expect(embed.structuredContent).toMatchObject({ engine: 'all-minilm-l6-v2', dimensions: 384 });
    expect(JSON.parse(textOf(embed))).toEqual(embed.structuredContent);
    const similarity = await call('similarity', {
      query: 'cats',
      texts: ['dogs bark', 'cats purr'],
      engine: 'all-minilm-l6-v2',
    });
    expect(similarity.structuredContent).toMatchObject({
      engine: 'all-minilm-l6-v2',
      ranking: [{ index: 1 }, { index: 0 }],
    });
    expect(textOf(similarity)).toMatch(/^1\. \[1\] /);
  });
});

describe('a required field that cannot be read', () => {
  it('embed on an engine whose id is a number: a failed call that keeps the vectors as text', async () => {
    rewrites = [
      {
        path: '/capabilities',
        answer: (body) => ({
          ...body,
          data: (body.data as Answer[]).map((service) =>
            service.id === 'embeddings'
              ? { ...service, engines: [{ id: 7, name: 'English' }] }
              : service,
          ),
        }),
      },
      // A gateway that takes the id it listed, as the number it listed.
      {
        path: '/embeddings',
        answer: (body) => body,
        request: (body) => ({ ...body, model: 'all-minilm-l6-v2' }),
      },
    ];
    const result = (await client.callTool({
      name: 'embed',
      arguments: { texts: ['one'] },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ engine: 7, dimensions: 384 });
    expect(result.structuredContent).toMatchObject({ error: { code: 'invalid_response' } });
    expect(result.content[1]).toMatchObject({ text: expect.stringContaining('given as it came') });
  });
});

describe('ask_model', () => {
  it('an answer with extra fields, no finish_reason and a body model that is a number', async () => {
    rewrites = [
      { path: '/models', answer: hostileModels },
      {
        path: '/chat/completions',
        answer: (body) => {
          const [choice] = body.choices as Answer[];
          return {
            ...body,
            ...EXTRA,
            model: 42,
            usage: { prompt_tokens: '3', completion_tokens: null },
            choices: [{ ...choice, ...EXTRA, finish_reason: null }],
          };
        },
      },
    ];
    const result = await call('ask_model', { model: 'community/general', prompt: 'hello' });
    expect(textOf(result)).toBe('Echo: hello');
    expect(result.structuredContent).toMatchObject({
      text: 'Echo: hello',
      model: 'community/general',
    });
    // No reason given: none reported (it was 'unknown', a word the server never sent).
    expect(result.structuredContent).not.toHaveProperty('finish_reason');
  });
});
