/**
 * Compile-time tests of the public types (`pnpm run typecheck` checks them; vitest does not run
 * them): what each field and call option accepts, what the calls return, and a `@ts-expect-error`
 * wherever a wrong type must be refused.
 */
import type { CallOptions, GatewayClientOptions } from '@infergate/core';
import type { Document } from '@langchain/core/documents';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import { assertType, describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type ChatRoute,
  type ChatRouteHop,
  createGatewayTools,
  createOcrTool,
  createTranscribeTool,
  createTranslateTool,
  GatewayAudioTranscriptLoader,
  GatewayChatModel,
  type GatewayChatModelCallOptions,
  type GatewayChatModelFields,
  GatewayEmbeddings,
  type GatewayEmbeddingsFields,
  GatewayOcrLoader,
  type GatewayResponseMetadata,
  type GatewayTool,
  GatewayTranslator,
  type SteeringOptions,
} from '../src/index';

describe('GatewayChatModel fields', () => {
  it('takes the model id, sampling settings, capabilities and the connection', () => {
    assertType<GatewayChatModelFields>({
      model: 'community/general',
      temperature: 0.2,
      maxTokens: 64,
      topP: 0.9,
      stop: ['END'],
      seed: 7,
      timeout: 30_000,
      maxRetries: 1,
      streaming: true,
      modelKwargs: { repetition_penalty: 1.1 },
      capabilities: ['chat', 'tools', 'a-capability-of-tomorrow'],
      acceptsContentParts: false,
      sendReasoning: true,
      apiKey: 'ig-key',
      baseURL: 'https://gateway.test/v1',
      headers: { 'x-team': 'docs' },
      fetch: globalThis.fetch,
      maxConcurrencyPerKey: 8,
      onEvent: () => {},
      recordContent: true,
    });
    expectTypeOf<GatewayChatModelFields['model']>().toEqualTypeOf<string>();
    expectTypeOf(new GatewayChatModel('community/general').model).toEqualTypeOf<string>();
  });

  it("takes core's client options as core types them (headers as fetch takes them)", () => {
    type Taken = 'apiKey' | 'baseURL' | 'headers' | 'fetch' | 'budget' | 'maxConcurrencyPerKey';
    expectTypeOf<Pick<GatewayChatModelFields, Taken>>().toEqualTypeOf<
      Pick<GatewayClientOptions, Taken>
    >();
    expectTypeOf<GatewayChatModelCallOptions['headers']>().toEqualTypeOf<CallOptions['headers']>();
    assertType<GatewayChatModelFields>({ model: 'm', headers: new Headers({ 'x-team': 'docs' }) });
    assertType<GatewayChatModelCallOptions>({ headers: [['x-request', '1']] });
  });

  it('refuses wrong field types and a missing model', () => {
    // @ts-expect-error the model id is required
    assertType<GatewayChatModelFields>({ temperature: 0.2 });
    // @ts-expect-error temperature is a number
    assertType<GatewayChatModelFields>({ model: 'm', temperature: '0.2' });
    // @ts-expect-error stop sequences are a list
    assertType<GatewayChatModelFields>({ model: 'm', stop: 'END' });
    // @ts-expect-error streaming is a boolean
    assertType<GatewayChatModelFields>({ model: 'm', streaming: 'yes' });
    // @ts-expect-error headers are strings
    assertType<GatewayChatModelFields>({ model: 'm', headers: { 'x-n': 1 } });
    // @ts-expect-error the second argument's fields leave the model out
    new GatewayChatModel('m', { model: 'other' });
  });
});

describe('GatewayChatModel call options and results', () => {
  const model = new GatewayChatModel('community/general');

  it('takes the call options bindTools and createAgent bind', () => {
    assertType<GatewayChatModelCallOptions>({
      tools: [],
      tool_choice: 'any',
      response_format: { type: 'json_object' },
      strict: true,
      headers: { 'x-request': '1' },
      modelKwargs: { parallel_tool_calls: false },
      stop: ['END'],
      maxRetries: 0,
      timeout: 1000,
      signal: AbortSignal.timeout(1000),
    });
    // @ts-expect-error strict is a boolean
    assertType<GatewayChatModelCallOptions>({ strict: 'yes' });
    // @ts-expect-error response_format is the gateway's object
    assertType<GatewayChatModelCallOptions>({ response_format: 'json' });
  });

  it('invoke, stream and bindTools give AI message chunks', () => {
    expectTypeOf(model.invoke('hi')).resolves.toEqualTypeOf<AIMessageChunk>();
    expectTypeOf(
      model.invoke('hi', { strict: true, headers: { a: 'b' } }),
    ).resolves.toEqualTypeOf<AIMessageChunk>();
    // @ts-expect-error maxRetries is a number
    model.invoke('hi', { maxRetries: '1' });
    expectTypeOf(model.bindTools([]).invoke('hi')).resolves.toEqualTypeOf<AIMessageChunk>();
  });

  it('reports the gateway response metadata', () => {
    expectTypeOf<GatewayResponseMetadata['model_name']>().toEqualTypeOf<string>();
    expectTypeOf<GatewayResponseMetadata['requested_model']>().toEqualTypeOf<string>();
    expectTypeOf<GatewayResponseMetadata['fallback']>().toEqualTypeOf<boolean>();
    expectTypeOf<GatewayResponseMetadata['model_provider']>().toEqualTypeOf<'infergate'>();
  });
});

describe('withStructuredOutput', () => {
  const model = new GatewayChatModel('community/general');
  const Person = z.object({ name: z.string(), age: z.number() });

  it('returns the schema type, or { raw, parsed } with includeRaw', () => {
    expectTypeOf(model.withStructuredOutput(Person).invoke('x')).resolves.toEqualTypeOf<{
      name: string;
      age: number;
    }>();
    expectTypeOf(
      model.withStructuredOutput(Person, { includeRaw: true }).invoke('x'),
    ).resolves.toEqualTypeOf<{ raw: BaseMessage; parsed: { name: string; age: number } }>();
    expectTypeOf(
      model.withStructuredOutput({ type: 'object', properties: {} }).invoke('x'),
    ).resolves.toEqualTypeOf<Record<string, unknown>>();
  });

  it('refuses a schema that is not one', () => {
    // @ts-expect-error a schema is an object
    model.withStructuredOutput('person');
  });

  it("takes core's structuredOutput as a field (methods) and a call option (methods, standard)", () => {
    assertType<GatewayChatModelFields>({
      model: 'community/general',
      structuredOutput: { methods: ['tools', 'json_object'] },
    });
    // @ts-expect-error a method core does not know
    assertType<GatewayChatModelFields>({ model: 'm', structuredOutput: { methods: ['xml'] } });
    const structured = model.withStructuredOutput(Person, { method: 'functionCalling' });
    void structured.invoke('x', { structuredOutput: { methods: ['json_schema'] } });
    assertType<GatewayChatModelCallOptions>({ structuredOutput: { standard: Person } });
  });
});

describe('GatewayEmbeddings fields', () => {
  it('takes the engine, dimensions and the connection', () => {
    assertType<GatewayEmbeddingsFields>({
      model: 'multilingual-e5-base',
      dimensions: 256,
      timeout: 1000,
      maxRetries: 0,
      apiKey: 'ig-key',
    });
    assertType<GatewayEmbeddingsFields>({});
    // @ts-expect-error dimensions is a number
    assertType<GatewayEmbeddingsFields>({ dimensions: '256' });
    // @ts-expect-error the engine id is a string
    assertType<GatewayEmbeddingsFields>({ model: 5 });
  });

  it('embeds into number vectors', () => {
    const embeddings = new GatewayEmbeddings();
    expectTypeOf(embeddings.embedQuery('q')).resolves.toEqualTypeOf<number[]>();
    expectTypeOf(embeddings.embedDocuments(['d'])).resolves.toEqualTypeOf<number[][]>();
  });
});

describe('service tools, loaders and the translator', () => {
  it("tools take their service's arguments and answer text", () => {
    const translate = createTranslateTool();
    expectTypeOf(
      translate.invoke({ text: 'hello', target_language: 'uk' }),
    ).resolves.toEqualTypeOf<string>();
    translate.invoke({ text: 'hello', target_language: 'uk', source_language: 'en' });
    // @ts-expect-error text is a string
    translate.invoke({ text: 1, target_language: 'uk' });
    // @ts-expect-error the text is required
    translate.invoke({ target_language: 'uk' });
    createOcrTool({ resolveMedia: (reference) => new Uint8Array(reference.length) }).invoke({
      image: 'file-1',
    });
    // @ts-expect-error ocr reads an image
    createOcrTool().invoke({ audio: 'file-1' });
    createTranscribeTool().invoke({ audio: 'UklGRg==', language: 'uk', translate: true });
    // @ts-expect-error translate (to English) is a boolean
    createTranscribeTool().invoke({ audio: 'UklGRg==', translate: 'yes' });
    expectTypeOf(createGatewayTools({ include: ['ocr'] })).resolves.toEqualTypeOf<GatewayTool[]>();
    // @ts-expect-error only the three services are tools
    createGatewayTools({ include: ['embeddings'] });
  });

  it('loaders need their media; the translator keeps strings and Documents', () => {
    expectTypeOf(new GatewayOcrLoader({ image: new Uint8Array(1) }).load()).resolves.toEqualTypeOf<
      Document[]
    >();
    // @ts-expect-error the OCR loader needs an image
    new GatewayOcrLoader({});
    // @ts-expect-error translate is a boolean
    new GatewayAudioTranscriptLoader({ audio: new Uint8Array(1), translate: 'yes' });
    expectTypeOf(
      new GatewayTranslator({ targetLanguage: 'de' }).invoke('hello'),
    ).resolves.toEqualTypeOf<string>();
    expectTypeOf(
      new GatewayTranslator<Document>({ targetLanguage: 'de' }).invoke({} as Document),
    ).resolves.toEqualTypeOf<Document>();
    // @ts-expect-error the target language is required
    new GatewayTranslator({});
  });
});

describe('the route and the steering options (issue 44 point 4, issue 43 point 3)', () => {
  it("types response_metadata.route as core's ChatRoute", () => {
    expectTypeOf<GatewayResponseMetadata['route']>().toEqualTypeOf<ChatRoute | undefined>();
    expectTypeOf<ChatRoute['hops']>().toEqualTypeOf<ChatRouteHop[]>();
    const metadata = {} as GatewayResponseMetadata;
    // (`.hops` on a route read this way: TS2339 before.)
    expectTypeOf(metadata.route?.hops[0]?.model).toEqualTypeOf<string | undefined>();
  });

  it("takes core's steering options as fields and call options", () => {
    assertType<GatewayChatModelFields>({
      model: 'community/general',
      fallbackModels: ['community/tools'],
      firstChunkTimeoutMs: 2_000,
      chunkTimeoutMs: 5_000,
      hedge: { afterMs: 'auto', maxExtra: 0.05 },
    });
    assertType<GatewayChatModelCallOptions>({ fallbackModels: [], hedge: false });
    expectTypeOf<Pick<GatewayChatModelFields, keyof SteeringOptions>>().toExtend<SteeringOptions>();
    // @ts-expect-error a fallback list is a list of ids
    assertType<GatewayChatModelFields>({ model: 'm', fallbackModels: 'community/tools' });
  });
});
