// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription).
import { ENDPOINTS } from '@infergate/core/internal';
import type { GatewayModelConfig } from '../shared/gateway-model-config';
import { lazily } from '../shared/load-lazily';
import { withMappedErrors } from '../shared/map-gateway-error';
import type { GatewayServices } from './gateway-service-types';

/**
 * service-calls.ts, loaded on the first service call or tool use (`client_code_unavailable` if it
 * cannot be): the helpers' and the tools' code, out of a chat-only app's start-up chunk.
 */
export const loadServiceCalls = lazily('the service calls', () => import('./service-calls'));

/**
 * The gateway's services as typed helpers; core validates every limit before the network. Each
 * call loads its code on first use (service-calls.ts).
 */
export function createGatewayServices(config: GatewayModelConfig): GatewayServices {
  // Nothing is built or sent when the calls' code cannot be loaded.
  const calls = (path: string) => withMappedErrors(config, path, undefined, loadServiceCalls);
  return {
    translate: async (input, options) =>
      (await calls(ENDPOINTS.translation)).translate(config, input, options),
    ocr: async (input, options) => (await calls(ENDPOINTS.ocr)).ocr(config, input, options),
    transcribe: async (input, options) =>
      (await calls(ENDPOINTS.transcription)).transcribe(config, input, options),
  };
}
