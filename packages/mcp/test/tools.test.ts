/**
 * Every tool and resource through the MCP SDK's own `Client` against the emulator's HTTP server,
 * over each transport: in-memory, Streamable HTTP (`startHttpServer`, no file paths) and stdio
 * (the built `infergate-mcp`, spawned as a desktop client does).
 */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { mp3WithSpeech, pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { textOf, transportsOfFile } from './harness';

const { harness, connectOver } = transportsOfFile();
beforeEach(() => {
  harness().gateway.emulator.clearFaults();
  harness().gateway.emulator.resetCounters();
});

const requests = () => harness().gateway.emulator.counters.requests;
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe.each([
  { transport: 'in-memory', files: true },
  { transport: 'http', files: false },
  { transport: 'stdio', files: true },
] as const)('over $transport', ({ transport, files }) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectOver(transport, `tools-${transport}`);
  });

  describe('tools/list', () => {
    it('offers every tool with schemas that state the gateway limits', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'ask_model',
        'embed',
        'list_models',
        'ocr',
        'similarity',
        'transcribe',
        'translate',
      ]);
      const schema = (name: string) =>
        tools.find((tool) => tool.name === name)!.inputSchema as {
          properties: Record<string, Record<string, unknown>>;
          required?: string[];
        };
      expect(schema('translate').properties.text).toMatchObject({ maxLength: 4096 });
      expect(String(schema('translate').properties.text!.description)).toContain('4096 bytes');
      expect(schema('translate').required).toEqual(['text', 'target_language']);
      // No length: the limit is the decoded bytes' (a data: URL, line breaks), core's check (rv-svc F1).
      expect(schema('ocr').properties.image_base64).not.toHaveProperty('maxLength');
      expect(String(schema('ocr').properties.image_base64!.description)).toContain('23 MiB');
      expect(Object.keys(schema('transcribe').properties)).toEqual([
        'audio_url',
        'audio_base64',
        ...(files ? ['audio_path'] : []),
        'language',
        'translate',
      ]);
      // The gateway's per-request limits are core's to split by (embedMany), not the tool's.
      expect(schema('embed').properties.texts).toMatchObject({ minItems: 1 });
      expect(schema('embed').properties.texts).not.toHaveProperty('maxItems');
      for (const tool of tools) expect(tool.description!.length).toBeGreaterThan(60);
    });
  });

  describe('translate', () => {
    it('translates', async () => {
      const result = await client.callTool({
        name: 'translate',
        arguments: { text: 'Good morning', target_language: 'de' },
      });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe('[de] Good morning');
      expect(result.structuredContent).toEqual({
        text: '[de] Good morning',
        target_language: 'de',
        source_language: 'en',
      });
    });

    it.each([
      {
        name: 'refuses text over 4096 bytes of UTF-8 by its schema, sending nothing',
        text: 'é'.repeat(2049),
        says: '4098 bytes',
      },
      {
        name: 'words a text over the limit in characters too by its bytes, with its size',
        text: 'a'.repeat(4097),
        says: '"text" is 4097 bytes of UTF-8; the limit is 4096 bytes',
      },
    ])('$name', async ({ text, says }) => {
      const result = await client.callTool({
        name: 'translate',
        arguments: { text, target_language: 'de' },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(says);
      expect(requests().translations).toBe(0);
    });

    it('refuses a bad language code and unknown arguments by its schema', async () => {
      for (const args of [
        { text: 'hi', target_language: 'German!' },
        { text: 'hi', target_language: 'de', tone: 'formal' },
        { text: '', target_language: 'de' },
      ]) {
        const result = await client.callTool({ name: 'translate', arguments: args });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain('Input validation error');
      }
      expect(requests().translations).toBe(0);
    });

    it('names the argument each refusal is about, once', async () => {
      const refusal = async (args: Record<string, unknown>) =>
        textOf(await client.callTool({ name: 'translate', arguments: args }));
      const language = await refusal({ text: 'hi', target_language: 'ukrainian' });
      expect(language).toContain('at target_language');
      expect(language).not.toContain('at text');
      expect(language.match(/language code/g)).toHaveLength(1);
      expect(await refusal({ text: 'é'.repeat(2049), target_language: 'de' })).toMatch(
        /4098 bytes.* at text/,
      );
      expect(requests().translations).toBe(0);
    });
  });

  describe('ocr', () => {
    it('reads an image given as base64', async () => {
      const result = await client.callTool({
        name: 'ocr',
        arguments: { image_base64: base64(pngWithText('Invoice 42')) },
      });
      expect(textOf(result)).toBe('Invoice 42');
      expect(result.structuredContent).toMatchObject({ text: 'Invoice 42', confidence: 0.98 });
    });

    it.skipIf(!files)(
      'reads an image file under the allowed root (a relative path starts there)',
      async () => {
        await writeFile(join(harness().root, 'scan.png'), pngWithText('Receipt 7'));
        const result = await client.callTool({
          name: 'ocr',
          arguments: { image_path: 'scan.png' },
        });
        expect(textOf(result)).toBe('Receipt 7');
      },
    );

    // Downloads themselves: private-urls.test.ts (a loopback server, allowed there).
    it('refuses an image URL on a loopback address by default, sending nothing', async () => {
      let connections = 0;
      const web = createServer((_, res) => res.writeHead(200).end(pngWithText('From the web')));
      web.on('connection', () => {
        connections += 1;
      });
      await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = web.address() as { port: number };
        const result = await client.callTool({
          name: 'ocr',
          arguments: { image_url: `http://127.0.0.1:${port}/scan.png` },
        });
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toMatchObject({ error: { code: 'url_refused' } });
        expect(connections).toBe(0);
        expect(requests().ocr).toBe(0);
      } finally {
        web.close();
      }
    });

    it('takes exactly one of path, URL and base64', async () => {
      for (const args of [{}, { image_base64: 'aGk=', image_url: 'https://example.test/a.png' }]) {
        const result = await client.callTool({ name: 'ocr', arguments: args });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain(
          `give exactly one of ${files ? 'image_path, ' : ''}image_url, image_base64`,
        );
      }
      expect(requests().ocr).toBe(0);
    });
  });

  describe('transcribe', () => {
    it('transcribes an audio file, and translates the speech into English with translate: true', async () => {
      const wav = wavWithSpeech('привіт світ', { seconds: 2 });
      await writeFile(join(harness().root, 'note.wav'), wav);
      const plain = await client.callTool({
        name: 'transcribe',
        arguments: files
          ? { audio_path: join(harness().root, 'note.wav') }
          : { audio_base64: base64(wav) },
      });
      expect(textOf(plain)).toBe('привіт світ');
      expect(plain.structuredContent).toMatchObject({ language: 'uk', duration_seconds: 2 });

      const english = await client.callTool({
        name: 'transcribe',
        arguments: { audio_base64: base64(mp3WithSpeech('привіт світ')), translate: true },
      });
      expect(textOf(english)).toBe('[en] привіт світ');
      expect(english.structuredContent).toMatchObject({ translated_to: 'en' });
    });
  });

  describe('embed and similarity', () => {
    it('embeds texts with the chosen engine, one vector per text', async () => {
      const result = await client.callTool({
        name: 'embed',
        arguments: { texts: ['red apple', 'green pear'], engine: 'multilingual-e5-base' },
      });
      const { engine, dimensions, vectors } = result.structuredContent as {
        engine: string;
        dimensions: number;
        vectors: number[][];
      };
      expect([engine, dimensions, vectors.length]).toEqual(['multilingual-e5-base', 768, 2]);
      expect(JSON.parse(textOf(result)).vectors).toEqual(vectors);
    });

    it('asks for an engine when the gateway has several and none was named', async () => {
      const result = await client.callTool({ name: 'embed', arguments: { texts: ['a'] } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({
        error: {
          code: 'invalid_request_error',
          alternatives: ['multilingual-e5-base', 'all-minilm-l6-v2'],
        },
      });
      expect(requests().embeddings).toBe(0);
    });

    it.each([
      { over: '64 texts', texts: Array.from({ length: 65 }, (_, i) => `text ${i}`) },
      { over: '64 KiB', texts: ['x'.repeat(40_000), 'y'.repeat(30_000)] },
    ])('embeds a list over $over in several requests (core splits it)', async ({ texts }) => {
      const result = await client.callTool({
        name: 'embed',
        arguments: { texts, engine: 'all-minilm-l6-v2' },
      });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { vectors: number[][] }).vectors).toHaveLength(
        texts.length,
      );
      expect(requests().embeddings).toBe(2);
    });

    it('ranks texts against a query, best first', async () => {
      const result = await client.callTool({
        name: 'similarity',
        arguments: {
          query: 'cats purr',
          texts: ['stock markets fell', 'cats purr softly at night', 'dogs bark'],
          engine: 'all-minilm-l6-v2',
          top_k: 2,
        },
      });
      const { ranking } = result.structuredContent as {
        ranking: { index: number; score: number; text: string }[];
      };
      expect(ranking).toHaveLength(2);
      expect(ranking[0]).toMatchObject({ index: 1, text: 'cats purr softly at night' });
      expect(ranking[0]!.score).toBeGreaterThan(ranking[1]!.score);
      expect(textOf(result).split('\n')[0]).toMatch(/^1\. \[1\] 0\.\d{3} cats purr/);
    });
  });

  describe("refusals name the tool's own arguments, not core's", () => {
    const refused = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      const { error } = result.structuredContent as {
        error: { field: string; message: string; what_to_do: string };
      };
      expect(error.message.startsWith(`${error.field}: `)).toBe(true);
      expect(error.what_to_do).toContain(`Fix the argument "${error.field}"`);
      return error.field;
    };
    const tooLong = 'x'.repeat(40_000);
    const engine = 'multilingual-e5-base';

    it('embed and similarity: engine, texts[i], query', async () => {
      expect(await refused('embed', { texts: ['a'] })).toBe('engine');
      expect(await refused('embed', { texts: [tooLong], engine })).toBe('texts[0]');
      expect(await refused('embed', { texts: ['a', tooLong], engine })).toBe('texts[1]');
      expect(requests().embeddings).toBe(0);
      expect(await refused('similarity', { query: 'a', texts: ['b'] })).toBe('engine');
      expect(await refused('similarity', { query: tooLong, texts: ['b'], engine })).toBe('query');
      expect(await refused('similarity', { query: 'a', texts: [tooLong], engine })).toBe(
        'texts[0]',
      );
    });

    it('similarity, query and its one text both refused: the error told names its own', async () => {
      const result = await client.callTool({
        name: 'similarity',
        arguments: { query: tooLong, texts: [`${tooLong}y`], engine },
      });
      const { error } = result.structuredContent as { error: { field: string; message: string } };
      // Whichever refusal is told, its field is the argument its message measured.
      const bytes = { query: tooLong.length, 'texts[0]': tooLong.length + 1 }[error.field];
      expect(error.message.startsWith(`${error.field}: is ${bytes} bytes`)).toBe(true);
    });

    it('ocr and transcribe: the image or audio argument given', async () => {
      expect(await refused('ocr', { image_base64: '!!!!' })).toBe('image_base64');
      const png = base64(pngWithText('not audio'));
      expect(await refused('transcribe', { audio_base64: png })).toBe('audio_base64');
      if (files) {
        await writeFile(join(harness().root, 'picture.png'), pngWithText('not audio'));
        expect(await refused('transcribe', { audio_path: 'picture.png' })).toBe('audio_path');
      }
      expect([requests().ocr, requests().transcriptions]).toEqual([0, 0]);
    });
  });

  describe('list_models and ask_model', () => {
    it('lists the models with capabilities and the services with their availability', async () => {
      const result = await client.callTool({
        name: 'list_models',
        arguments: { capability: 'json_schema' },
      });
      const { models, services } = result.structuredContent as {
        models: { id: string; capabilities: string[]; owned_by: string }[];
        services: { id: string; available: boolean }[];
      };
      expect(models.map((model) => model.id)).toContain('community/general');
      expect(models.map((model) => model.id)).not.toContain('community/plain');
      expect(models.every((model) => model.capabilities.includes('json_schema'))).toBe(true);
      expect(models.find((model) => model.id === 'community/general')?.owned_by).toBe(
        'service-community',
      );
      expect(services.map((service) => [service.id, service.available])).toEqual([
        ['translation', true],
        ['ocr', true],
        ['speech_to_text', true],
        ['embeddings', true],
      ]);
    });

    it('asks a model', async () => {
      const result = await client.callTool({
        name: 'ask_model',
        arguments: { model: 'community/general', prompt: 'hello there' },
      });
      expect(textOf(result)).toBe('Echo: hello there');
      expect(result.structuredContent).toMatchObject({
        model: 'community/general',
        finish_reason: 'stop',
      });
    });

    it('refuses a model that lacks a needed capability before sending, naming models that would do', async () => {
      const result = await client.callTool({
        name: 'ask_model',
        arguments: { model: 'community/plain', prompt: 'hi', json: true },
      });
      expect(result.isError).toBe(true);
      const { error } = result.structuredContent as {
        error: { code: string; missing: string[]; alternatives: string[]; what_to_do: string };
      };
      // (json: true is core's structured output by json_object alone: a model without it is
      // skipped, as with output_schema.)
      expect(error.code).toBe('no_model_can_serve');
      expect(error.alternatives).toContain('community/general');
      expect(error.what_to_do).toContain('community/general');
      expect(textOf(result)).toMatch(/^Gateway error no_model_can_serve: /);
      expect(requests().chat).toBe(0);
    });

    it('names close matches for an unknown model', async () => {
      const result = await client.callTool({
        name: 'ask_model',
        arguments: { model: 'community/genral', prompt: 'hi' },
      });
      expect(result.structuredContent).toMatchObject({ error: { code: 'model_not_found' } });
      expect(textOf(result)).toContain('Did you mean community/general');
      expect(requests().chat).toBe(0);
    });
  });

  describe.each([
    {
      as: '""',
      callers: 'many tool callers send them',
      blank: '',
      required: [
        ['translate', { text: 'hello', target_language: '' }],
        ['ask_model', { model: 'community/general', prompt: '' }],
        ['similarity', { query: '', texts: ['a'], engine: 'all-minilm-l6-v2' }],
        ['ocr', { image_base64: '', image_url: '' }],
      ],
    },
    {
      as: 'null',
      callers: 'strict-schema tool callers send them',
      blank: null,
      required: [
        ['translate', { text: 'hello', target_language: null }],
        ['ask_model', { model: null, prompt: 'hi' }],
        ['ocr', { image_base64: null, image_url: null }],
      ],
    },
  ] as const)('optional arguments given as $as', ({ callers, blank, required }) => {
    it(`are taken as left out, as ${callers}`, async () => {
      const ocr = await client.callTool({
        name: 'ocr',
        arguments: {
          image_base64: base64(pngWithText('Left out fields')),
          image_url: blank,
          ...(files ? { image_path: blank } : {}),
        },
      });
      expect(textOf(ocr)).toBe('Left out fields');

      const transcribe = await client.callTool({
        name: 'transcribe',
        arguments: {
          audio_base64: base64(wavWithSpeech('leave it out')),
          audio_url: blank,
          ...(files ? { audio_path: blank } : {}),
          language: blank,
          translate: blank,
        },
      });
      expect(textOf(transcribe)).toBe('leave it out');
      expect(transcribe.structuredContent).not.toHaveProperty('translated_to');

      const translate = await client.callTool({
        name: 'translate',
        arguments: { text: 'hello', target_language: 'de', source_language: blank },
      });
      expect(textOf(translate)).toBe('[de] hello');

      const embed = await client.callTool({
        name: 'embed',
        arguments: {
          texts: ['a'],
          engine: 'all-minilm-l6-v2',
          input_type: blank,
          dimensions: blank,
        },
      });
      expect(embed.structuredContent).toMatchObject({ engine: 'all-minilm-l6-v2' });

      const ranked = await client.callTool({
        name: 'similarity',
        arguments: { query: 'a', texts: ['a', 'b'], engine: 'all-minilm-l6-v2', top_k: blank },
      });
      expect((ranked.structuredContent as { ranking: unknown[] }).ranking).toHaveLength(2);

      const models = await client.callTool({
        name: 'list_models',
        arguments: { capability: blank },
      });
      expect(models.isError).toBeFalsy();
      const ids = (models.structuredContent as { models: { id: string }[] }).models.map(
        (model) => model.id,
      );
      expect(ids).toContain('community/plain');

      const asked = await client.callTool({
        name: 'ask_model',
        arguments: {
          model: 'community/general',
          prompt: 'left-out options',
          system: blank,
          json: blank,
          max_tokens: blank,
          temperature: blank,
          output_schema: blank,
          output_schema_name: blank,
          fallback_models: blank,
        },
      });
      expect(textOf(asked)).toBe('Echo: left-out options');
    });

    it('stay refused where a value is required (a required field, one of the media fields)', async () => {
      for (const [name, args] of required) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError, name).toBe(true);
        expect(textOf(result)).toContain('Input validation error');
      }
      expect(requests()).toMatchObject({ translations: 0, chat: 0, embeddings: 0, ocr: 0 });
    });
  });

  describe('gateway errors', () => {
    it('become isError results with the code, the message and what to do', async () => {
      harness().gateway.emulator.injectFault({
        fault: 'model_busy',
        endpoint: 'translations',
        retryAfter: 120,
      });
      const result = await client.callTool({
        name: 'translate',
        arguments: { text: 'hi', target_language: 'de' },
      });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({
        error: { code: 'model_busy', status: 429, retry_after_ms: 120_000 },
      });
      expect(textOf(result)).toContain('wait 120 s, then try again');
    });
  });

  describe('resources', () => {
    it('lists and reads infergate://models and infergate://services as JSON', async () => {
      const { resources } = await client.listResources();
      expect(resources.map((resource) => [resource.uri, resource.mimeType])).toEqual([
        ['infergate://models', 'application/json'],
        ['infergate://services', 'application/json'],
      ]);
      const models = await client.readResource({ uri: 'infergate://models' });
      const listed = JSON.parse((models.contents[0] as { text: string }).text) as { id: string }[];
      expect(listed.map((model) => model.id)).toContain('pool-a/llama-3-8b');
      const services = await client.readResource({ uri: 'infergate://services' });
      const embeddings = (
        JSON.parse((services.contents[0] as { text: string }).text) as {
          id: string;
          engines?: { id: string }[];
        }[]
      ).find((service) => service.id === 'embeddings');
      expect(embeddings?.engines?.map((engine) => engine.id)).toEqual([
        'multilingual-e5-base',
        'all-minilm-l6-v2',
      ]);
    });
  });
});
