// docs/gateway-protocol.md §3 (the catalog: `GET /models`, `GET /capabilities`).
import type { CallOptions, GatewayModel, GatewayService } from '@infergate/core';
import { ENDPOINTS } from '@infergate/core/internal';
import type { GatewayModelConfig } from '../shared/gateway-model-config';
import { withMappedErrors } from '../shared/map-gateway-error';
import { withUserAgent } from '../shared/user-agent';

/** The gateway's catalog as a provider lists it (core caches it for `catalogTtlMs`). */
export interface GatewayCatalog {
  /** The chat models this key may use (cached briefly). */
  models(options?: CallOptions): Promise<GatewayModel[]>;
  /** The services (translation, ocr, speech_to_text, embeddings with its engines). */
  services(options?: CallOptions): Promise<GatewayService[]>;
}

/** Core's catalog calls, their errors the AI SDK's. */
export function createGatewayCatalog(config: GatewayModelConfig): GatewayCatalog {
  return {
    models: (options) =>
      withMappedErrors(config, ENDPOINTS.models, undefined, () =>
        config.client().models(withOwnUserAgent(options)),
      ),
    services: (options) =>
      withMappedErrors(config, ENDPOINTS.capabilities, undefined, () =>
        config.client().services(withOwnUserAgent(options)),
      ),
  };
}

/** A call's own user agent gets ours too (without one, the client's, which has it, is sent). */
function withOwnUserAgent(options: CallOptions | undefined): CallOptions | undefined {
  const headers = options?.headers;
  return headers === undefined ? options : { ...options, headers: withUserAgent(headers, false) };
}
