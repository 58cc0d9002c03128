// Compile-time tests of the main entry's public types against ai@7: checked by `typecheck`
// (tsconfig includes src/), never run. A line that stops compiling, or a `@ts-expect-error` that
// no longer finds an error, fails the package's type check.
import type {
  EmbeddingModelV4,
  LanguageModelV4,
  ProviderV4,
  TranscriptionModelV4,
  TypeValidationError,
} from '@ai-sdk/provider';
import type { GatewayModel, GatewayService, SteeringOptions } from '@infergate/core';
import type { EmbeddingModel, generateText, LanguageModel, ToolSet, TranscriptionModel } from 'ai';
import { expectTypeOf } from 'vitest';
import {
  type ChatRoute,
  type ChatRouteHop,
  createGateway,
  type FailedChatRoute,
  type GatewayChatLanguageModel,
  type GatewayChatOptions,
  type GatewayEmbeddingModel,
  type GatewayEmbeddingOptions,
  type GatewayProvider,
  type GatewayProviderBase,
  type GatewayProviderMetadata,
  type GatewayProviderSettings,
  type GatewayTools,
  type GatewayTranscriptionModel,
  type GatewayTranscriptionOptions,
  gateway,
  InvalidStructuredOutputError,
  type ModelCapability,
  type StructuredOutputIssue,
  type StructuredOutputMethod,
  UnsupportedModelCapabilityError,
} from './index';

// The provider is ai@7's: a ProviderV4 whose models ai@7 takes.
expectTypeOf(gateway).toEqualTypeOf<GatewayProvider>();
expectTypeOf(createGateway()).toEqualTypeOf<GatewayProvider>();
expectTypeOf<GatewayProvider>().toExtend<ProviderV4>();
expectTypeOf<GatewayProvider>().toExtend<
  GatewayProviderBase<GatewayChatLanguageModel, GatewayTools>
>();
expectTypeOf(gateway('community/general')).toEqualTypeOf<GatewayChatLanguageModel>();
expectTypeOf(gateway('community/general')).toExtend<LanguageModel>();
expectTypeOf(gateway.languageModel('community/general')).toExtend<LanguageModelV4>();
expectTypeOf(gateway.chat('community/general')).toEqualTypeOf<GatewayChatLanguageModel>();
expectTypeOf(gateway.embeddingModel()).toEqualTypeOf<GatewayEmbeddingModel>();
expectTypeOf(gateway.embeddingModel('all-minilm-l6-v2')).toExtend<EmbeddingModel>();
expectTypeOf(gateway.embeddingModel()).toExtend<EmbeddingModelV4>();
expectTypeOf(gateway.transcriptionModel()).toEqualTypeOf<GatewayTranscriptionModel>();
expectTypeOf(gateway.transcriptionModel()).toExtend<TranscriptionModel>();
expectTypeOf(gateway.transcriptionModel()).toExtend<TranscriptionModelV4>();
expectTypeOf(gateway.imageModel).returns.toBeNever();
expectTypeOf(gateway.models()).resolves.toEqualTypeOf<GatewayModel[]>();
expectTypeOf(gateway.services()).resolves.toEqualTypeOf<GatewayService[]>();

// Model ids are open strings (the catalog is live); the settings are typed.
expectTypeOf(gateway).toBeCallableWith('my/laptop-model');
expectTypeOf(gateway).toBeCallableWith('community/general', {
  capabilities: ['chat', 'tools'],
  sendReasoning: true,
  strictJsonSchema: true,
});
// The steering settings (issue 33): per model, per provider, and per call through providerOptions.
expectTypeOf(gateway).toBeCallableWith('community/general', {
  fallbackModels: ['community/tools', 'pool-a/llama-3-8b'],
  firstChunkTimeoutMs: 20_000,
  chunkTimeoutMs: 30_000,
});
expectTypeOf(createGateway).toBeCallableWith({ firstChunkTimeoutMs: 20_000, chunkTimeoutMs: 1 });
expectTypeOf<GatewayChatOptions>().toEqualTypeOf<{
  fallbackModels?: string[] | undefined;
  firstChunkTimeoutMs?: number | undefined;
  chunkTimeoutMs?: number | undefined;
  hedge?: { afterMs: number | 'auto'; maxExtra?: number | undefined } | false | undefined;
  structuredOutput?: { methods?: StructuredOutputMethod[] | undefined } | undefined;
  streamUsage?: boolean | undefined;
  reasoningEffort?: string | undefined;
  textVerbosity?: string | undefined;
  strictJsonSchema?: boolean | undefined;
}>();
// The steering fields are core's (its one reader checks them): the same shape as SteeringOptions.
expectTypeOf<GatewayChatOptions>().toExtend<SteeringOptions>();
// A call's options fit ai's providerOptions as they are.
expectTypeOf<{ infergate: GatewayChatOptions }>().toExtend<
  NonNullable<Parameters<typeof generateText>[0]['providerOptions']>
>();
// structuredOutput.methods (issue 52): per model and per call, core's names only.
expectTypeOf(gateway).toBeCallableWith('community/general', {
  structuredOutput: { methods: ['tools', 'json_object'] },
});
// @ts-expect-error a method is one of core's
gateway('community/general', { structuredOutput: { methods: ['function_calling'] } });
// @ts-expect-error fallbackModels is a list of ids
gateway('community/general', { fallbackModels: 'community/tools' });
// @ts-expect-error a chat model needs an id
gateway.chat();
// @ts-expect-error capabilities are the gateway's names
gateway('community/general', { capabilities: ['vision'] });
// @ts-expect-error fallbackToJsonObject is gone: core serves a schema on every model
gateway('community/general', { fallbackToJsonObject: true });

// createGateway's settings: each option's type, unknown options refused.
expectTypeOf(createGateway).toBeCallableWith({
  baseURL: 'https://gateway.example/v1',
  apiKey: 'key',
  headers: { 'x-team': 'search' },
  fetch,
  maxConcurrency: 2,
  maxConcurrencyPerKey: 4,
  timeoutMs: 60_000,
  catalogTtlMs: 1000,
  maxRetryAfterMs: 5000,
  onEvent: () => {},
  recordContent: false,
});
expectTypeOf(createGateway).parameter(0).toEqualTypeOf<GatewayProviderSettings | undefined>();
// @ts-expect-error baseURL is a string
createGateway({ baseURL: new URL('https://gateway.example/v1') });
// @ts-expect-error maxConcurrency is a number
createGateway({ maxConcurrency: '4' });
// @ts-expect-error headers are strings
createGateway({ headers: { 'x-retries': 3 } });
// An undefined value is taken (and left out), as `process.env.ORG` without `ORG`.
createGateway({ headers: { 'x-org': undefined as string | undefined } });
// @ts-expect-error no such setting
createGateway({ retries: 3 });

// providerOptions.infergate of embeddings and transcription.
expectTypeOf<GatewayEmbeddingOptions>().toEqualTypeOf<{
  inputType?: 'document' | 'query' | undefined;
  dimensions?: number | undefined;
}>();
expectTypeOf<GatewayTranscriptionOptions>().toEqualTypeOf<{
  language?: string | undefined;
  translate?: boolean | undefined;
}>();
// @ts-expect-error inputType is document or query
const wrongInputType: GatewayEmbeddingOptions = { inputType: 'passage' };
// @ts-expect-error translate is a boolean
const wrongTranslate: GatewayTranscriptionOptions = { translate: 'yes' };

// The service tools are ai@7 tools; the service helpers are typed.
expectTypeOf({
  translate: gateway.tools.translate({ targetLanguage: 'de' }),
  ocr: gateway.tools.ocr(),
  transcribe: gateway.tools.transcribe(),
}).toExtend<ToolSet>();
expectTypeOf(gateway.translate({ text: 'hi', targetLanguage: 'de' })).resolves.toEqualTypeOf<{
  text: string;
  sourceLanguage?: string;
  targetLanguage: string;
}>();
// @ts-expect-error translate needs a target language
gateway.translate({ text: 'hi' });

// The capability refusal narrows like the AI SDK's errors.
declare const error: unknown;
if (UnsupportedModelCapabilityError.isInstance(error)) {
  expectTypeOf(error.missing).toEqualTypeOf<ModelCapability[]>();
  expectTypeOf(error.alternatives).toEqualTypeOf<string[] | undefined>();
}
// The failed schema check narrows too, and is a TypeValidationError with the text and issues.
if (InvalidStructuredOutputError.isInstance(error)) {
  expectTypeOf(error).toExtend<TypeValidationError>();
  expectTypeOf(error.text).toEqualTypeOf<string>();
  expectTypeOf(error.issues).toEqualTypeOf<StructuredOutputIssue[]>();
  expectTypeOf(error.method).toEqualTypeOf<StructuredOutputMethod>();
  expectTypeOf(error.route).toEqualTypeOf<FailedChatRoute | undefined>();
}

export { wrongInputType, wrongTranslate };

// The route is typed (issue 44 point 4): `providerMetadata.infergate` read as GatewayProviderMetadata.
expectTypeOf<GatewayProviderMetadata['route']>().toEqualTypeOf<ChatRoute>();
expectTypeOf<ChatRoute['hops']>().toEqualTypeOf<ChatRouteHop[]>();
expectTypeOf<ChatRoute['answeredBy']>().toEqualTypeOf<string>();
expectTypeOf<FailedChatRoute>().toEqualTypeOf<Omit<ChatRoute, 'answeredBy'>>();
declare const result: Awaited<ReturnType<typeof generateText>>;
const metadata = result.providerMetadata?.infergate as GatewayProviderMetadata | undefined;
expectTypeOf(metadata?.route.hops[0]?.model).toEqualTypeOf<string | undefined>();
