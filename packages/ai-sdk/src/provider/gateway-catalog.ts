// docs/gateway-protocol.md §3 (the catalog: `GET /models`, `GET /capabilities`).
import type { CallOptions, GatewayClient, GatewayModel, GatewayService } from '@infergate/core';
import { ENDPOINTS } from '@infergate/core/internal';
import { endpointURL, type GatewayModelConfig } from '../shared/gateway-model-config';
import { mapGatewayError } from '../shared/map-gateway-error';

/** The gateway's catalog as a provider lists it (core caches it for `catalogTtlMs`). */
export interface GatewayCatalog {
  /** The chat models this key may use (cached briefly). */
  models(options?: CallOptions): Promise<GatewayModel[]>;
  /** The services (translation, ocr, speech_to_text, embeddings with its engines). */
  services(options?: CallOptions): Promise<GatewayService[]>;
}

/** Core's catalog calls, their errors the AI SDK's. */
export function createGatewayCatalog(config: GatewayModelConfig): GatewayCatalog {
  const read = async <T>(path: string, call: (client: GatewayClient) => Promise<T>): Promise<T> => {
    try {
      return await call(config.client());
    } catch (error) {
      throw mapGatewayError(error, {
        url: endpointURL(config, path),
        requestBodyValues: undefined,
        maxRetryAfterMs: config.maxRetryAfterMs,
      });
    }
  };
  return {
    models: (options) => read(ENDPOINTS.models, (client) => client.models(options)),
    services: (options) => read(ENDPOINTS.capabilities, (client) => client.services(options)),
  };
}
