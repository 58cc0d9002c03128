// docs/gateway-protocol.md §9 (transcription, for AI SDK 6).
import type { TranscriptionModelV3, TranscriptionModelV3CallOptions } from '@ai-sdk/provider-v3';
import type { GatewayTranscriptionModel } from '../transcription/gateway-transcription-model';
import { toV3Warnings } from './convert-to-v3-result';

type TranscriptionModelV3Result = Awaited<ReturnType<TranscriptionModelV3['doGenerate']>>;

/**
 * The gateway's speech-to-text service for AI SDK 6 (`TranscriptionModelV3`), running the V4
 * model of the main entry. V3 has no `timestampGranularities`, `words` or `usage`: the word
 * timings the main entry returns when the gateway's engine sends them are left out with a warning.
 */
export class GatewayTranscriptionModelV3 implements TranscriptionModelV3 {
  readonly specificationVersion = 'v3';
  readonly modelId: string;

  private readonly model: GatewayTranscriptionModel;

  constructor(model: GatewayTranscriptionModel) {
    this.model = model;
    this.modelId = model.modelId;
  }

  get provider(): string {
    return this.model.provider;
  }

  async doGenerate(options: TranscriptionModelV3CallOptions): Promise<TranscriptionModelV3Result> {
    const { words, usage, warnings, providerMetadata, ...result } =
      await this.model.doGenerate(options);
    const v3Warnings = toV3Warnings(warnings);
    if (words !== undefined && words.length > 0) {
      v3Warnings.push({
        type: 'other',
        message:
          'The transcript had word timings, which AI SDK 6 (TranscriptionModelV3) cannot carry; they were left out (segments are kept).',
      });
    }
    return {
      ...result,
      warnings: v3Warnings,
      ...(providerMetadata !== undefined
        ? { providerMetadata: providerMetadata as TranscriptionModelV3Result['providerMetadata'] }
        : {}),
    };
  }
}
