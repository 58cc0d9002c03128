// docs/gateway-protocol.md §10.2 (codes and statuses), §10.3 (bodies that are not the gateway's).
import type { ChosenFault } from './faults';
import { errorResponse, GatewayRefusal } from './gateway-error';
import { waitBeforeHeaders } from './timing';

/** Marks the rejection of a `drop_connection` fault (a network error, like fetch's). */
export class ConnectionDropped extends TypeError {
  constructor() {
    super('fetch failed: connection closed before headers (drop_connection fault)');
    this.name = 'TypeError';
  }
}

/**
 * Applies a fault that acts before the response headers. Returns the response that replaces the
 * endpoint's answer, or undefined to go on (after `slow_headers` waited).
 */
export async function applyPreHeaderFault(
  fault: ChosenFault,
  deadline: number,
  signal: AbortSignal,
): Promise<Response | undefined> {
  const retryAfter = fault.retryAfter;
  switch (fault.fault) {
    case 'rate_limit':
      return errorResponse(
        new GatewayRefusal(
          'client_concurrency_exceeded',
          'Too many requests at once for this key',
          {
            retryAfter,
          },
        ),
      );
    case 'model_busy':
      return errorResponse(
        new GatewayRefusal('model_busy', 'Every copy of the model is busy', { retryAfter }),
      );
    case 'bad_gateway':
      return errorResponse(new GatewayRefusal('all_providers_failed', 'All providers failed'));
    case 'provider_request_failed':
      return errorResponse(
        new GatewayRefusal('provider_request_failed', 'The provider failed to answer the request'),
      );
    case 'provider_protocol_error':
      return errorResponse(
        new GatewayRefusal(
          'provider_protocol_error',
          'The provider answered with something that is not a valid chat answer',
        ),
      );
    case 'service_unavailable':
      return errorResponse(
        new GatewayRefusal('provider_unavailable', 'No provider is online for this request'),
      );
    case 'gateway_timeout':
      return errorResponse(
        new GatewayRefusal('request_timeout', 'The request exceeded its time limit'),
      );
    case 'upstream_html':
      return new Response(
        '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><p>upstream engine error</p></body></html>',
        { status: 502, headers: { 'content-type': 'text/html; charset=utf-8' } },
      );
    case 'upstream_text':
      return new Response('Internal Server Error: the engine crashed', {
        status: 500,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
    case 'upstream_json':
      return new Response(
        JSON.stringify({ detail: 'Engine rejected the input (upstream_json fault)' }),
        {
          status: 400,
          headers: { 'content-type': 'application/json' },
        },
      );
    case 'drop_connection':
      throw new ConnectionDropped();
    case 'slow_headers':
      await waitBeforeHeaders(fault.ms, deadline, signal);
      return undefined;
    default:
      return undefined;
  }
}

/** `truncated_json`: a 200 JSON answer whose body stops half-way. */
export async function truncateJsonBody(response: Response): Promise<Response> {
  if (response.status !== 200 || !(response.headers.get('content-type') ?? '').includes('json')) {
    return response;
  }
  const text = await response.text();
  return new Response(text.slice(0, Math.floor(text.length / 2)), {
    status: 200,
    headers: response.headers,
  });
}
