import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClient } from '../src/client/client';
import { createGatewayClient, isGatewayError, LIMITS } from '../src/index';
import { clientOn, DEFAULT_KEYS, totalRequests } from './helpers';

const WAV = new Uint8Array(64);
WAV.set([0x52, 0x49, 0x46, 0x46, 56, 0, 0, 0, 0x57, 0x41, 0x56, 0x45]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const AAC_ADTS = [0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const OGG = [0x4f, 0x67, 0x67, 0x53, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/** The bytes behind an empty ID3v2.4 tag (as HLS and podcast tools write in front of AAC). */
const ID3_THEN = (audio: number[]) =>
  new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0, ...audio]);

/** A client of its own emulator that keeps the JSON body of every request `kept` selects. */
async function recordingSent(baseURL: string, kept: (request: Request) => boolean) {
  const { emulator } = await emulate();
  const sent: Record<string, unknown>[] = [];
  const client = createGatewayClient({
    baseURL,
    apiKey: DEFAULT_KEYS.full,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (kept(request)) sent.push(await request.clone().json());
      return emulator.fetch(request);
    },
  });
  return { client, sent };
}

describe('services against the emulator', () => {
  it('translates', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const result = await client.translate({
      input: 'Hello',
      target_language: 'uk',
      source_language: 'en',
    });
    expect(typeof result.text).toBe('string');
    expect(result.target_language).toBe('uk');
  });

  it('embeds with the one engine given, and embedMany keeps input order across batches', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const single = await client.embed({ input: ['alpha', 'beta'], model: 'all-minilm-l6-v2' });
    expect(single.data).toHaveLength(2);
    expect(single.data[0]?.embedding).toHaveLength(384);
    const texts = Array.from({ length: 130 }, (_, i) => `text number ${i}`);
    const vectors = await client.embedMany(texts, { model: 'all-minilm-l6-v2' });
    expect(vectors).toHaveLength(130);
    expect(emulator.counters.requests.embeddings).toBe(1 + 3);
    const again = await client.embed({ input: [texts[129]!], model: 'all-minilm-l6-v2' });
    expect(vectors[129]).toEqual(again.data[0]?.embedding);
  });

  /** A client whose embeddings answers `rewrite` changes (the request's texts at hand). */
  async function rewritingEmbeddings(
    rewrite: (data: { index: number; embedding: number[] }[], input: string[]) => void,
  ) {
    const gateway = await emulate();
    const client = clientOn(gateway, {
      maxRetries: 0,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const sent = request.url.endsWith('/embeddings') ? await request.clone().json() : null;
        const answer = await gateway.emulator.fetch(request);
        if (sent === null) return answer;
        const body = (await answer.json()) as { data: { index: number; embedding: number[] }[] };
        rewrite(body.data, sent.input);
        return Response.json(body);
      },
    });
    return { client, expected: clientOn(gateway) };
  }

  /**
   * `embed` of `texts` answers them in input order, their vectors `inOrder`, and tells
   * `onResponse` so.
   */
  async function expectEmbeddedInOrder(
    client: GatewayClient,
    texts: string[],
    inOrder: number[][],
  ) {
    let told: unknown;
    // A copy: the indexes `onResponse` saw when it was told, not filled in later.
    const onResponse = (info: { body: unknown }) => {
      told = structuredClone(info.body);
    };
    const answer = await client.embed({ input: texts, model: 'all-minilm-l6-v2' }, { onResponse });
    expect(answer.data.map((item) => item.index)).toEqual(texts.map((_, i) => i));
    expect(answer.data.map((item) => item.embedding)).toEqual(inOrder);
    expect(told).toEqual(answer);
  }

  it.each([
    ['any item', () => true],
    ['the first item (Gemini leaves out an index of 0)', (i: number) => i === 0],
  ])('embeddings answers without `index` on %s take list positions', async (_, dropped) => {
    const { client, expected } = await rewritingEmbeddings((data) => {
      data.forEach((item: { index?: number }, i) => {
        if (dropped(i)) delete item.index;
      });
    });
    const texts = ['alpha', 'beta', 'gamma'];
    const vectors = await expected.embedMany(texts, { model: 'all-minilm-l6-v2' });
    expect(await client.embedMany(texts, { model: 'all-minilm-l6-v2' })).toEqual(vectors);
    await expectEmbeddedInOrder(client, texts, vectors);
  });

  it('embed returns the vectors in input order when the answer lists them out of order (§6)', async () => {
    const { client, expected } = await rewritingEmbeddings((data) => data.reverse());
    const texts = ['alpha', 'beta', 'gamma'];
    const inOrder = await expected.embedMany(texts, { model: 'all-minilm-l6-v2' });
    await expectEmbeddedInOrder(client, texts, inOrder);
    expect(await client.embedMany(texts, { model: 'all-minilm-l6-v2' })).toEqual(inOrder);
  });

  it('embedMany refuses batches whose vectors differ in length, as it refuses one such answer', async () => {
    // The batch from texts[64] on is answered with vectors one number short.
    const { client } = await rewritingEmbeddings((data, input) => {
      if (input[0] !== 't0') for (const item of data) item.embedding.pop();
    });
    const texts = Array.from({ length: 100 }, (_, i) => `t${i}`);
    const error = await caught(
      () => client.embedMany(texts, { model: 'all-minilm-l6-v2', maxConcurrency: 1 }),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_response');
    expect(error.message).toBe(
      'The embeddings answer for texts[64..99] has vectors of length 383, where the answer for texts[0..63] of the same call had length 384',
    );
  });

  it('embedMany stops the other batches when one fails', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxConcurrency: 1 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'upstream_json', endpoint: 'embeddings', times: 1 });
    const texts = Array.from({ length: 130 }, (_, i) => `t${i}`);
    const error = await caught(
      () => client.embedMany(texts, { model: 'all-minilm-l6-v2' }),
      isGatewayError,
    );
    expect(error.code).toBe('upstream_error');
    expect(emulator.counters.requests.embeddings).toBe(1);
    expect(client.budget.isIdle).toBe(true);
  });

  it('embedMany splits by bytes too', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const texts = Array.from({ length: 5 }, (_, i) => `${i}`.repeat(20_000));
    await client.embedMany(texts, { model: 'all-minilm-l6-v2' });
    expect(emulator.counters.requests.embeddings).toBe(2);
  });

  it('embedMany sends inputType to the multilingual engine only (docs/gateway-protocol.md §6)', async () => {
    const { client, sent } = await recordingSent('https://input-type.test', (request) =>
      request.url.endsWith('/embeddings'),
    );
    await client.embedMany(['a', 'b'], { model: 'multilingual-e5-base', inputType: 'query' });
    await client.embedMany(['a', 'b'], { model: 'all-minilm-l6-v2', inputType: 'query' });
    expect(sent.map((body) => [body.model, body.input_type])).toEqual([
      ['multilingual-e5-base', 'query'],
      ['all-minilm-l6-v2', undefined],
    ]);
  });

  it("embedMany's refusals name its own fields: texts[i] (per text or in total), text, inputType", async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const refused = (texts: unknown[], options: object) =>
      caught(() => client.embedMany(texts as string[], options), isGatewayError);
    const tooLongForMultilingual = await refused(['a', 'x'.repeat(40_000)], {
      model: 'multilingual-e5-base',
    });
    expect(tooLongForMultilingual.field).toBe('texts[1]');
    expect(tooLongForMultilingual.message).toMatch(
      /^texts\[1\]: is 40000 bytes in UTF-8; .* per text/,
    );
    const overOneRequest = await refused(['a', 'x'.repeat(70_000)], { model: 'all-minilm-l6-v2' });
    expect(overOneRequest.message).toBe(
      'texts[1]: is 70000 bytes in UTF-8; a text may have at most 65536 bytes (the limit of one request)',
    );
    const notText = await refused(['a', 5], { model: 'all-minilm-l6-v2' });
    expect([notText.field, notText.message]).toEqual([
      'texts[1]',
      'texts[1]: must be a string, got number',
    ]);
    // One text (the AI SDK's `embed`, LangChain's `embedQuery`): no list was given, `text` it is.
    const oneEmpty = await refused([''], { model: 'all-minilm-l6-v2' });
    expect([oneEmpty.field, oneEmpty.message]).toEqual([
      'text',
      'text: is empty; each text needs at least 1 character',
    ]);
    const oneTooLong = await refused(['x'.repeat(40_000)], { model: 'multilingual-e5-base' });
    expect(oneTooLong.message).toMatch(/^text: is 40000 bytes in UTF-8; .* per text/);
    const inputType = await refused(['a'], { model: 'all-minilm-l6-v2', inputType: 'qury' });
    expect(inputType.message).toBe('inputType: is "qury"; allowed: "document", "query"');
    // A request's own text over the limit is named as that text; several texts, as the total.
    const single = await caught(
      () => client.embed({ input: ['x'.repeat(70_000)] }),
      isGatewayError,
    );
    expect(single.field).toBe('input[0]');
    expect(single.message).not.toContain('in total');
    expect(gateway.emulator.counters.requests.embeddings ?? 0).toBe(0);
  });

  it('sends input_type and dimensions to the multilingual engine', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const result = await client.embed({
      input: 'привіт',
      model: 'multilingual-e5-base',
      input_type: 'query',
      dimensions: 256,
    });
    expect(result.data[0]?.embedding).toHaveLength(256);
  });

  it('reads text from an image', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const result = await client.ocr({ image: PNG });
    expect(typeof result.text).toBe('string');
  });

  it('sends unpadded and line-wrapped base64 padded and compact (the gateway reads it strictly)', async () => {
    const { client, sent } = await recordingSent(
      'https://base64-padding.test',
      (request) =>
        request.headers.get('content-type')?.includes('json') === true && request.method === 'POST',
    );
    expect(typeof (await client.ocr({ image: 'aGVsbG8' })).text).toBe('string');
    const wrapped = `${btoa(String.fromCharCode(...PNG)).replace(/=+$/, '')}`.replace(
      /(.{8})/g,
      '$1\r\n',
    );
    expect(typeof (await client.ocr({ image: wrapped })).text).toBe('string');
    const wavBase64 = btoa(String.fromCharCode(...WAV));
    const unpaddedWav = ` ${wavBase64.replace(/=+$/, '').replace(/(.{16})/g, '$1\n')} `;
    const transcript = await client.transcribe({ audio: unpaddedWav, encoding: 'json' });
    expect(typeof transcript.text).toBe('string');
    expect(sent).toEqual([
      { image_base64: 'aGVsbG8=' },
      { image_base64: btoa(String.fromCharCode(...PNG)) },
      expect.objectContaining({ audio_base64: wavBase64 }),
    ]);
  });

  it('transcribes multipart, JSON and text', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const json = await client.transcribe({ audio: WAV, language: 'en' });
    expect(typeof json.text).toBe('string');
    const viaJson = await client.transcribe({
      audio: new Blob([WAV]),
      encoding: 'json',
      translate: true,
    });
    expect(typeof viaJson.text).toBe('string');
    const text = await client.transcribe({ audio: WAV, response_format: 'text' });
    expect(typeof text).toBe('string');
    expect(text).toBe(json.text);
  });

  describe('a refused request sends nothing', () => {
    const refusals: [string, (c: GatewayClient) => Promise<unknown>][] = [
      ['chat without messages', (c) => c.chat({ model: 'community/general', messages: [] })],
      [
        'stream with a bad response_format',
        (c) =>
          c.chatStream({
            model: 'community/general',
            messages: [{ role: 'user', content: 'x' }],
            response_format: { type: 'yaml' } as never,
          }),
      ],
      [
        'translation too long',
        (c) => c.translate({ input: 'x'.repeat(4097), target_language: 'uk' }),
      ],
      [
        'translation bad language',
        (c) => c.translate({ input: 'x', target_language: 'ukrainian' }),
      ],
      [
        'translation extra field',
        (c) => c.translate({ input: 'x', target_language: 'uk', tone: 'x' } as never),
      ],
      ['embeddings empty', (c) => c.embed({ input: [] })],
      ['embeddings 65 texts', (c) => c.embed({ input: Array(65).fill('x') })],
      ['embeddings empty text', (c) => c.embed({ input: ['a', ''] })],
      ['embeddings too big', (c) => c.embed({ input: ['x'.repeat(65_537)] })],
      ['embeddings bad input_type', (c) => c.embed({ input: 'x', input_type: 'passage' as never })],
      ['embedMany empty text', (c) => c.embedMany(['a', ''])],
      ['ocr malformed base64', (c) => c.ocr({ image: 'not base64!' })],
      ['ocr base64 with a dangling character', (c) => c.ocr({ image: 'aGVsbG8gd' })],
      ['ocr base64 with misplaced padding', (c) => c.ocr({ image: 'aGV=sbG8' })],
      ['audio malformed base64 (JSON)', (c) => c.transcribe({ audio: 'UklGR$', encoding: 'json' })],
      ['ocr empty', (c) => c.ocr({ image: '' })],
      ['ocr too big', (c) => c.ocr({ image: new Uint8Array(LIMITS.ocrMaxImageBytes + 1) })],
      ['audio not wav/mp3/flac', (c) => c.transcribe({ audio: PNG })],
      ['audio AAC behind an ID3 tag', (c) => c.transcribe({ audio: ID3_THEN(AAC_ADTS) })],
      ['audio Ogg behind an ID3 tag', (c) => c.transcribe({ audio: new Blob([ID3_THEN(OGG)]) })],
      [
        'audio too big',
        (c) => c.transcribe({ audio: new Uint8Array(LIMITS.audioMaxBytes + 1).fill(0xff) }),
      ],
      [
        'audio bad response_format',
        (c) => c.transcribe({ audio: WAV, response_format: 'vtt' as never }),
      ],
    ];
    it.each(refusals)('%s', async (_name, run) => {
      const gateway = await emulate();
      const client = clientOn(gateway);
      const { emulator } = gateway;
      const error = await caught(() => run(client), isGatewayError);
      expect(error.code).toBe('invalid_request_error');
      expect(error.field).toBeTruthy();
      expect(totalRequests(emulator)).toBe(0);
    });

    it('32 KB per text on the multilingual engine (after reading the catalog only)', async () => {
      const gateway = await emulate();
      const client = clientOn(gateway);
      const { emulator } = gateway;
      const error = await caught(
        () => client.embed({ input: 'x'.repeat(32 * 1024 + 1), model: 'multilingual-e5-base' }),
        isGatewayError,
      );
      expect(error.message).toContain('32769 bytes');
      expect(emulator.counters.requests.embeddings).toBe(0);
    });

    it.each([
      [
        'embed',
        (c: GatewayClient) => c.embed({ input: 'x', model: 'all-minilm-l6-v2', dimensions: 256 }),
      ],
      [
        'embedMany',
        (c: GatewayClient) => c.embedMany(['x'], { model: 'all-minilm-l6-v2', dimensions: 768 }),
      ],
      [
        'embed (multilingual)',
        (c: GatewayClient) =>
          c.embed({ input: 'x', model: 'multilingual-e5-base', dimensions: 384 }),
      ],
    ])(
      '%s: dimensions the engine does not give (after reading the catalog only)',
      async (_name, run) => {
        const gateway = await emulate();
        const client = clientOn(gateway);
        const { emulator } = gateway;
        const error = await caught(() => run(client), isGatewayError);
        expect(error.code).toBe('invalid_request_error');
        expect(error.field).toBe('dimensions');
        expect(emulator.counters.requests.embeddings).toBe(0);
      },
    );

    it('dimensions of an engine the catalog gives none for (the spec shape) are sent as-is', async () => {
      const engines = { 'bge-m3': { name: 'BGE M3', dimensions: [1024, 512] } };
      const gateway = await emulate({ scenario: { services: { embeddings: { engines } } } });
      const client = clientOn(gateway);
      const { emulator } = gateway;
      const listed = await client.embeddingEngines();
      expect(listed.find((engine) => engine.id === 'bge-m3')?.dimensions).toEqual([1024, 512]);
      const unlisted = { 'bge-m3': { ...engines['bge-m3'], listDimensions: false } };
      const spec = await emulate({ scenario: { services: { embeddings: { engines: unlisted } } } });
      const specClient = clientOn(spec);
      expect((await specClient.embeddingEngines()).map((e) => e.dimensions)).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      for (const dimensions of [1024, 512]) {
        const result = await specClient.embed({ input: 'x', model: 'bge-m3', dimensions });
        expect(result.data[0]?.embedding).toHaveLength(dimensions);
      }
      // The gateway's own refusal decides: one request sent.
      const refused = await caught(
        () => specClient.embed({ input: 'x', model: 'bge-m3', dimensions: 384 }),
        isGatewayError,
      );
      expect([refused.code, refused.status]).toEqual(['invalid_request_error', 400]);
      expect(spec.emulator.counters.requests.embeddings).toBe(3);
      // Listed, they are checked before sending.
      const early = await caught(
        () => client.embed({ input: 'x', model: 'bge-m3', dimensions: 384 }),
        isGatewayError,
      );
      expect(early.message).toBe('dimensions: is 384; the engine "bge-m3" supports 512, 1024');
      expect(emulator.counters.requests.embeddings).toBe(0);
    });

    it('the English-oriented engine takes dimensions 384', async () => {
      const gateway = await emulate();
      const client = clientOn(gateway);
      const result = await client.embed({ input: 'x', model: 'all-minilm-l6-v2', dimensions: 384 });
      expect(result.data[0]?.embedding).toHaveLength(384);
    });

    it('a capability check refuses before any chat request', async () => {
      const gateway = await emulate();
      const client = clientOn(gateway);
      const { emulator } = gateway;
      await caught(
        () => client.requireCapabilities('community/plain', ['streaming']),
        isGatewayError,
      );
      expect(emulator.counters.requests.chat).toBe(0);
    });
  });
});
