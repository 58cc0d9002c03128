// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription).
import { ENDPOINTS } from '@infergate/core/internal';
import { definedHeaders, type GatewayModelConfig } from '../shared/gateway-model-config';
import { withMappedErrors } from '../shared/map-gateway-error';
import type { GatewayServiceCallOptions, GatewayServices } from './gateway-service-types';

/** The gateway's services as typed helpers; core validates every limit before the network. */
export function createGatewayServices(config: GatewayModelConfig): GatewayServices {
  return {
    async translate(input, options = {}) {
      const request = {
        input: input.text,
        target_language: input.targetLanguage,
        source_language: input.sourceLanguage,
      };
      const response = await withMappedErrors(config, ENDPOINTS.translation, request, () =>
        config.client().translate(request, callOptions(options)),
      );
      return {
        text: response.text,
        ...(response.source_language !== undefined
          ? { sourceLanguage: response.source_language }
          : {}),
        targetLanguage: response.target_language,
      };
    },

    async ocr(input, options = {}) {
      const response = await withMappedErrors(
        config,
        ENDPOINTS.ocr,
        { image_base64: '<image>' },
        () => config.client().ocr({ image: input.image }, callOptions(options)),
      );
      return {
        text: response.text,
        ...(typeof response.confidence === 'number' ? { confidence: response.confidence } : {}),
        ...(typeof response.model === 'string' ? { model: response.model } : {}),
      };
    },

    async transcribe(input, options = {}) {
      const request = {
        audio: input.audio,
        response_format: 'json' as const,
        mime_type: input.mediaType,
        language: input.language,
        translate: input.translate,
      };
      const response = await withMappedErrors(
        config,
        ENDPOINTS.transcription,
        { ...request, audio: '<audio>' },
        () => config.client().transcribe(request, callOptions(options)),
      );
      return {
        text: response.text,
        ...(typeof response.language === 'string' ? { language: response.language } : {}),
        ...(typeof response.duration === 'number' ? { durationInSeconds: response.duration } : {}),
      };
    },
  };
}

function callOptions(options: GatewayServiceCallOptions) {
  return { signal: options.abortSignal, headers: definedHeaders(options.headers) };
}
