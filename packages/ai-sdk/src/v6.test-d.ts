// Compile-time tests of `/v6`'s public types against ai@6 (the `ai-v6` alias of ai@6.x): checked
// by `typecheck` (tsconfig includes src/), never run.
import type {
  EmbeddingModelV3,
  LanguageModelV3,
  ProviderV3,
  TranscriptionModelV3,
} from '@ai-sdk/provider-v3';
import type { GatewayModel, GatewayService } from '@infergate/core';
import type { LanguageModel as LanguageModel7 } from 'ai';
import type { EmbeddingModel, LanguageModel, ToolSet, TranscriptionModel } from 'ai-v6';
import { expectTypeOf } from 'vitest';
import {
  createGateway,
  type GatewayChatLanguageModelV3,
  type GatewayEmbeddingModelV3,
  type GatewayEmbeddingOptions,
  type GatewayProviderBase,
  type GatewayProviderSettings,
  type GatewayProviderV3,
  type GatewayToolsV3,
  type GatewayTranscriptionModelV3,
  type GatewayTranscriptionOptions,
  gateway,
} from './v6';

// The provider is ai@6's: a ProviderV3 whose models ai@6 takes (and ai@7, which wraps V3 models).
expectTypeOf(gateway).toEqualTypeOf<GatewayProviderV3>();
expectTypeOf(createGateway()).toEqualTypeOf<GatewayProviderV3>();
expectTypeOf<GatewayProviderV3>().toExtend<ProviderV3>();
expectTypeOf<GatewayProviderV3>().toExtend<
  GatewayProviderBase<GatewayChatLanguageModelV3, GatewayToolsV3>
>();
expectTypeOf(gateway('community/general')).toEqualTypeOf<GatewayChatLanguageModelV3>();
expectTypeOf(gateway('community/general')).toExtend<LanguageModel>();
expectTypeOf(gateway('community/general')).toExtend<LanguageModel7>();
expectTypeOf(gateway.languageModel('community/general')).toExtend<LanguageModelV3>();
expectTypeOf(gateway.chat('community/general')).toEqualTypeOf<GatewayChatLanguageModelV3>();
expectTypeOf(gateway.embeddingModel()).toEqualTypeOf<GatewayEmbeddingModelV3>();
expectTypeOf(
  gateway.textEmbeddingModel('all-minilm-l6-v2'),
).toEqualTypeOf<GatewayEmbeddingModelV3>();
expectTypeOf(gateway.embeddingModel()).toExtend<EmbeddingModel>();
expectTypeOf(gateway.embeddingModel()).toExtend<EmbeddingModelV3>();
expectTypeOf(gateway.transcriptionModel()).toEqualTypeOf<GatewayTranscriptionModelV3>();
expectTypeOf(gateway.transcriptionModel()).toExtend<TranscriptionModel>();
expectTypeOf(gateway.transcriptionModel()).toExtend<TranscriptionModelV3>();
expectTypeOf(gateway.imageModel).returns.toBeNever();
expectTypeOf(gateway.speechModel).returns.toBeNever();
expectTypeOf(gateway.rerankingModel).returns.toBeNever();
expectTypeOf(gateway.models()).resolves.toEqualTypeOf<GatewayModel[]>();
expectTypeOf(gateway.services()).resolves.toEqualTypeOf<GatewayService[]>();

// The same settings and model settings as the main entry.
expectTypeOf(createGateway).parameter(0).toEqualTypeOf<GatewayProviderSettings | undefined>();
expectTypeOf(gateway).toBeCallableWith('community/general', { capabilities: ['chat'] });
// @ts-expect-error capabilities are the gateway's names
gateway('community/general', { capabilities: ['vision'] });
// @ts-expect-error timeoutMs is a number
createGateway({ timeoutMs: '1m' });
// @ts-expect-error no such setting
createGateway({ retries: 3 });
expectTypeOf<GatewayEmbeddingOptions>().toEqualTypeOf<{
  inputType?: 'document' | 'query' | undefined;
  dimensions?: number | undefined;
}>();
expectTypeOf<GatewayTranscriptionOptions>().toEqualTypeOf<{
  language?: string | undefined;
  translate?: boolean | undefined;
}>();

// The service tools are ai@6 tools.
expectTypeOf({
  translate: gateway.tools.translate({ targetLanguage: 'de' }),
  ocr: gateway.tools.ocr(),
  transcribe: gateway.tools.transcribe(),
}).toExtend<ToolSet>();
