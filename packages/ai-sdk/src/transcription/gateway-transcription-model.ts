// docs/gateway-protocol.md §9 (transcription).
import type {
  SharedV4Warning,
  TranscriptionModelV4,
  TranscriptionModelV4CallOptions,
  TranscriptionModelV4Result,
} from '@ai-sdk/provider';
import type { TranscriptionResponse } from '@infergate/core';
import { ENDPOINTS } from '@infergate/core/internal';
import {
  AI_RETRIES,
  definedHeaders,
  endpointURL,
  type GatewayModelConfig,
  headersToRecord,
} from '../shared/gateway-model-config';
import { mapGatewayError } from '../shared/map-gateway-error';
import { parseGatewayTranscriptionOptions } from './gateway-transcription-options';

/** The gateway's id of the speech-to-text service: the model id when none is given. */
const SPEECH_TO_TEXT_SERVICE = 'speech_to_text';

/**
 * The gateway's speech-to-text service as an AI SDK `TranscriptionModelV4`. The service needs no
 * model, so the id is informational only and is not sent; results name the engine when the
 * gateway's answer does (`model`), else this id.
 */
export class GatewayTranscriptionModel implements TranscriptionModelV4 {
  readonly specificationVersion = 'v4';
  readonly modelId: string;
  private readonly config: GatewayModelConfig;

  constructor(modelId: string | undefined, config: GatewayModelConfig) {
    this.modelId = modelId ?? SPEECH_TO_TEXT_SERVICE;
    this.config = config;
  }

  get provider(): string {
    return this.config.provider;
  }

  async doGenerate(options: TranscriptionModelV4CallOptions): Promise<TranscriptionModelV4Result> {
    const warnings: SharedV4Warning[] = [];
    if (options.timestampGranularities !== undefined && options.timestampGranularities.length > 0) {
      warnings.push({
        type: 'unsupported',
        feature: 'timestampGranularities',
        details:
          'The gateway returns segments only when its engine does; it cannot be asked for them.',
      });
    }

    const infergateOptions = parseGatewayTranscriptionOptions(options.providerOptions);

    const request = {
      audio: options.audio,
      mime_type: options.mediaType,
      response_format: 'json' as const,
      language: infergateOptions?.language,
      translate: infergateOptions?.translate,
    };

    let response: TranscriptionResponse;
    let headers: Headers | undefined;
    try {
      response = await this.config.client().transcribe(request, {
        signal: options.abortSignal,
        headers: definedHeaders(options.headers),
        maxRetries: AI_RETRIES,
        onResponse: (info) => {
          headers = info.headers;
        },
      });
    } catch (error) {
      throw mapGatewayError(error, {
        url: endpointURL(this.config, ENDPOINTS.transcription),
        // The audio itself is left out of error reports.
        requestBodyValues: { ...request, audio: `<${audioSize(options.audio)} bytes>` },
        maxRetryAfterMs: this.config.maxRetryAfterMs,
      });
    }

    return {
      text: response.text,
      segments: segmentsOf(response),
      language: typeof response.language === 'string' ? response.language : undefined,
      durationInSeconds: typeof response.duration === 'number' ? response.duration : undefined,
      warnings,
      response: {
        timestamp: new Date(),
        // The engine that answered when the gateway names it, else the id this model was made with.
        modelId:
          typeof response.model === 'string' && response.model !== ''
            ? response.model
            : this.modelId,
        ...(headers !== undefined ? { headers: headersToRecord(headers) } : {}),
        body: response,
      },
    };
  }
}

function segmentsOf(response: TranscriptionResponse): TranscriptionModelV4Result['segments'] {
  if (!Array.isArray(response.segments)) return [];
  return response.segments.flatMap((segment: unknown) => {
    if (typeof segment !== 'object' || segment === null) return [];
    const { text, start, end } = segment as Record<string, unknown>;
    if (typeof text !== 'string' || typeof start !== 'number' || typeof end !== 'number') return [];
    return [{ text, startSecond: start, endSecond: end }];
  });
}

function audioSize(audio: Uint8Array | string): number {
  return typeof audio === 'string' ? Math.floor((audio.length * 3) / 4) : audio.byteLength;
}
