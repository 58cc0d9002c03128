// docs/gateway-protocol.md §10.1 (error body), §10.2 (codes and statuses), §10.5 (Retry-After).
/** The gateway's error codes. */
export type GatewayErrorCode =
  | 'invalid_request_error'
  | 'unsupported_model_capability'
  | 'invalid_api_key'
  | 'model_not_allowed'
  | 'unshielded_access_required'
  | 'model_not_found'
  | 'model_busy'
  | 'client_concurrency_exceeded'
  | 'all_providers_failed'
  | 'provider_request_failed'
  | 'provider_protocol_error'
  | 'provider_unavailable'
  | 'request_timeout';

/** Status used for each code (docs/gateway-protocol.md §10.2). */
const STATUS_BY_CODE: Record<GatewayErrorCode, number> = {
  invalid_request_error: 400,
  unsupported_model_capability: 400,
  invalid_api_key: 401,
  model_not_allowed: 403,
  unshielded_access_required: 403,
  model_not_found: 404,
  model_busy: 429,
  client_concurrency_exceeded: 429,
  all_providers_failed: 502,
  provider_request_failed: 502,
  provider_protocol_error: 502,
  provider_unavailable: 503,
  request_timeout: 504,
};

function typeFor(status: number): string {
  if (status === 400) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  return 'server_error';
}

/** Thrown inside the emulator to answer with a gateway error body. */
export class GatewayRefusal extends Error {
  readonly status: number;
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    readonly extra: {
      param?: string;
      retryAfter?: number;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.status = STATUS_BY_CODE[code];
  }
}

/** `invalid_request_error` naming the field. */
export function invalidField(param: string, message: string): GatewayRefusal {
  return new GatewayRefusal('invalid_request_error', message, { param });
}

/**
 * A value as an error message shows it: short strings and scalars as they are, anything else by
 * its kind, so a refusal never echoes a large value back.
 */
export function shownValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    return value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} characters`;
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function errorBody(code: GatewayErrorCode, message: string, param?: string): string {
  const error: Record<string, string> = { message, code, type: typeFor(STATUS_BY_CODE[code]) };
  if (param !== undefined) error.param = param;
  return JSON.stringify({ error });
}

/** The longest `Retry-After` the emulator sends, in seconds (the request duration limit, docs/gateway-protocol.md §11). */
const MAX_RETRY_AFTER_SECONDS = 300;

/**
 * `Retry-After` as RFC 9110 delta-seconds: a whole number from 0 to `MAX_RETRY_AFTER_SECONDS`,
 * whatever a scenario or fault header asked for (`1e+300`, `-1`, `0.5`, NaN → 1).
 */
export function retryAfterSeconds(value: number): number {
  if (!Number.isFinite(value)) return 1;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, Math.ceil(value)));
}

export function errorResponse(refusal: GatewayRefusal): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...refusal.extra.headers,
  };
  if (refusal.extra.retryAfter !== undefined)
    headers['retry-after'] = String(retryAfterSeconds(refusal.extra.retryAfter));
  return new Response(errorBody(refusal.code, refusal.message, refusal.extra.param), {
    status: refusal.status,
    headers,
  });
}

export function jsonResponse(body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
