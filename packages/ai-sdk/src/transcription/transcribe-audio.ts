// docs/gateway-protocol.md §9 (transcription).
import type {
  SharedV4Warning,
  TranscriptionModelV4CallOptions,
  TranscriptionModelV4Result,
} from '@ai-sdk/provider';
import type { TranscriptionResponse } from '@infergate/core';
import { ENDPOINTS } from '@infergate/core/internal';
import {
  AI_RETRIES,
  endpointURL,
  type GatewayModelConfig,
  headersToRecord,
} from '../shared/gateway-model-config';
import { mapGatewayError } from '../shared/map-gateway-error';
import { withUserAgent } from '../shared/user-agent';
import { parseGatewayTranscriptionOptions } from './gateway-transcription-options';

/**
 * `doGenerate` of `GatewayTranscriptionModel`, loaded on its first call (a chat-only app never
 * runs it): the warnings, `providerOptions.infergate`, the request and the result. `modelId` names
 * the result when the gateway's answer names no engine.
 */
export async function transcribeAudio(
  config: GatewayModelConfig,
  modelId: string,
  options: TranscriptionModelV4CallOptions,
): Promise<TranscriptionModelV4Result> {
  const warnings: SharedV4Warning[] = [];
  if (options.timestampGranularities !== undefined && options.timestampGranularities.length > 0) {
    warnings.push({
      type: 'unsupported',
      feature: 'timestampGranularities',
      details:
        'The gateway returns segments only when its engine does; it cannot be asked for them.',
    });
  }

  const infergateOptions = parseGatewayTranscriptionOptions(
    options.providerOptions,
    config.sentKey,
  );

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
    response = await config.client().transcribe(request, {
      signal: options.abortSignal,
      headers: withUserAgent(options.headers, false),
      maxRetries: AI_RETRIES,
      onResponse: (info) => {
        headers = info.headers;
      },
    });
  } catch (error) {
    throw mapGatewayError(error, {
      url: endpointURL(config, ENDPOINTS.transcription),
      // The audio itself is left out of error reports.
      requestBodyValues: { ...request, audio: `<${audioSize(options.audio)} bytes>` },
      sentKey: config.sentKey,
      maxRetryAfterMs: config.maxRetryAfterMs,
    });
  }

  const words = wordsOf(response);
  return {
    text: response.text,
    segments: segmentsOf(response),
    ...(words.length > 0 ? { words } : {}),
    language: typeof response.language === 'string' ? response.language : undefined,
    durationInSeconds: typeof response.duration === 'number' ? response.duration : undefined,
    warnings,
    response: {
      timestamp: new Date(),
      // The engine that answered when the gateway names it, else the id this model was made with.
      modelId:
        typeof response.model === 'string' && response.model !== '' ? response.model : modelId,
      ...(headers !== undefined ? { headers: headersToRecord(headers) } : {}),
      body: response,
    },
  };
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

/** An engine's word timings (`words: [{ word, start, end }]`, as OpenAI's verbose JSON has them). */
function wordsOf(
  response: TranscriptionResponse,
): NonNullable<TranscriptionModelV4Result['words']> {
  if (!Array.isArray(response.words)) return [];
  return response.words.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { word, start, end } = entry as Record<string, unknown>;
    if (typeof word !== 'string' || typeof start !== 'number' || typeof end !== 'number') return [];
    return [{ text: word, startSecond: start, endSecond: end }];
  });
}

function audioSize(audio: Uint8Array | string): number {
  return typeof audio === 'string' ? Math.floor((audio.length * 3) / 4) : audio.byteLength;
}
