// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription).
import { ENDPOINTS } from '@infergate/core/internal';
import type { GatewayModelConfig } from '../shared/gateway-model-config';
import { loadServiceParts } from '../shared/load-lazily';
import { withMappedErrors } from '../shared/map-gateway-error';
import type { GatewayServices } from './gateway-service-types';

/**
 * The gateway's services as typed helpers; core validates every limit before the network. Each
 * call loads its code on first use (service-calls.ts).
 */
export function createGatewayServices(config: GatewayModelConfig): GatewayServices {
  // Nothing is built or sent when the calls' code cannot be loaded.
  const calls = (path: string) => withMappedErrors(config, path, undefined, loadServiceParts);
  return {
    translate: async (input, options) =>
      (await calls(ENDPOINTS.translation)).translate(config, input, options),
    ocr: async (input, options) => (await calls(ENDPOINTS.ocr)).ocr(config, input, options),
    transcribe: async (input, options) =>
      (await calls(ENDPOINTS.transcription)).transcribe(config, input, options),
  };
}
