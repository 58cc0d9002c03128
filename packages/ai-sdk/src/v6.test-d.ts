// Compile-time tests of `/v6`'s public types against ai@6 (the `ai-v6` alias of ai@6.x): checked
// by `typecheck` (tsconfig includes src/), never run.
import type {
  EmbeddingModelV3,
  LanguageModelV3,
  ProviderV3,
  TranscriptionModelV3,
} from '@ai-sdk/provider-v3';
import type { LanguageModel as LanguageModel7 } from 'ai';
import type { EmbeddingModel, LanguageModel, ToolSet, TranscriptionModel } from 'ai-v6';
import { expectTypeOf } from 'vitest';
import type * as Main from './index';
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

// The provider is ai@6's ProviderV3, with the main entry's members over V3 models: the same
// catalog and service helpers, settings and model settings.
expectTypeOf(gateway).toEqualTypeOf<GatewayProviderV3>();
expectTypeOf<GatewayProviderV3>().toExtend<ProviderV3>();
expectTypeOf<GatewayProviderV3>().toExtend<
  GatewayProviderBase<GatewayChatLanguageModelV3, GatewayToolsV3>
>();
type Shared = 'models' | 'services' | 'translate' | 'ocr' | 'transcribe';
expectTypeOf<Pick<GatewayProviderV3, Shared>>().toEqualTypeOf<Pick<Main.GatewayProvider, Shared>>();
expectTypeOf(createGateway).parameters.toEqualTypeOf<Parameters<typeof Main.createGateway>>();
expectTypeOf(gateway.chat).parameters.toEqualTypeOf<Parameters<Main.GatewayProvider['chat']>>();
expectTypeOf<GatewayProviderSettings>().toEqualTypeOf<Main.GatewayProviderSettings>();
expectTypeOf<GatewayEmbeddingOptions>().toEqualTypeOf<Main.GatewayEmbeddingOptions>();
expectTypeOf<GatewayTranscriptionOptions>().toEqualTypeOf<Main.GatewayTranscriptionOptions>();
// @ts-expect-error capabilities are the gateway's names
gateway('community/general', { capabilities: ['vision'] });
// @ts-expect-error timeoutMs is a number
createGateway({ timeoutMs: '1m' });

// Each model kind: the V3 class, which ai@6 takes, and ai@7 too (it wraps V3 models).
const chat = gateway('community/general');
expectTypeOf(chat).toEqualTypeOf<GatewayChatLanguageModelV3>();
expectTypeOf(gateway.languageModel('community/general')).toEqualTypeOf(chat);
expectTypeOf(chat).toExtend<LanguageModelV3>();
expectTypeOf(chat).toExtend<LanguageModel>();
expectTypeOf(chat).toExtend<LanguageModel7>();
const embedding = gateway.embeddingModel();
expectTypeOf(gateway.textEmbeddingModel('all-minilm-l6-v2')).toEqualTypeOf(embedding);
expectTypeOf(embedding).toEqualTypeOf<GatewayEmbeddingModelV3>();
expectTypeOf(embedding).toExtend<EmbeddingModelV3>();
expectTypeOf(embedding).toExtend<EmbeddingModel>();
const transcription = gateway.transcriptionModel();
expectTypeOf(transcription).toEqualTypeOf<GatewayTranscriptionModelV3>();
expectTypeOf(transcription).toExtend<TranscriptionModelV3>();
expectTypeOf(transcription).toExtend<TranscriptionModel>();
// The kinds the gateway lacks throw.
expectTypeOf(gateway.imageModel).returns.toBeNever();
expectTypeOf(gateway.speechModel).returns.toBeNever();
expectTypeOf(gateway.rerankingModel).returns.toBeNever();

// The service tools are ai@6 tools.
expectTypeOf({
  translate: gateway.tools.translate({ targetLanguage: 'de' }),
  ocr: gateway.tools.ocr(),
  transcribe: gateway.tools.transcribe(),
}).toExtend<ToolSet>();
