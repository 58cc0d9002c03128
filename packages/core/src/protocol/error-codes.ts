// docs/gateway-protocol.md §10.2 (gateway codes), §10.4 (client codes).
/** The codes the gateway itself sends (docs/gateway-protocol.md §10.2). */
export const GATEWAY_ERROR_CODES = [
  'invalid_request_error',
  'unsupported_model_capability',
  'invalid_api_key',
  'model_not_allowed',
  'unshielded_access_required',
  'model_not_found',
  'model_busy',
  'client_concurrency_exceeded',
  'all_providers_failed',
  'provider_request_failed',
  'provider_protocol_error',
  'provider_unavailable',
  'request_timeout',
] as const;

/** Codes raised by the client itself. */
export const CLIENT_ERROR_CODES = [
  'stream_incomplete',
  'aborted',
  'timeout',
  'network_error',
  'invalid_response',
  'configuration_error',
  'upstream_error',
  'response_too_large',
  'client_code_unavailable',
  'no_model_can_serve',
  'invalid_structured_output',
] as const;

export type GatewayServerErrorCode = (typeof GATEWAY_ERROR_CODES)[number];
export type GatewayClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];
export type GatewayErrorCode = GatewayServerErrorCode | GatewayClientErrorCode;
