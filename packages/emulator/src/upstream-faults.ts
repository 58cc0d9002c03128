// docs/gateway-protocol.md §10.2 (codes and statuses), §10.3 (bodies that are not the gateway's).
import type { ChosenFault } from './faults';
import { errorResponse, GatewayRefusal } from './gateway-error';

/**
 * Marks a network error, as fetch rejects with: a `drop_connection` fault, or an upload whose body
 * stream failed (`cause`: its error).
 */
export class ConnectionDropped extends TypeError {
  constructor(
    message = 'fetch failed: connection closed before headers (drop_connection fault)',
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'TypeError';
  }
}

/**
 * The answer that replaces the endpoint's for a fault answered before the response headers (a
 * refusal, a 5xx, a dropped connection: the returned function throws `ConnectionDropped`), or
 * undefined for a fault that lets the request go on (`slow_headers` waits first, see
 * `serve`). Returned as a function so that a test's hold can keep the request before it answers.
 */
export function earlyFaultAnswer(fault: ChosenFault): (() => Response) | undefined {
  const retryAfter = fault.retryAfter;
  const refusal =
    (...args: ConstructorParameters<typeof GatewayRefusal>) =>
    () =>
      errorResponse(new GatewayRefusal(...args));
  switch (fault.fault) {
    case 'rate_limit':
      return refusal('client_concurrency_exceeded', 'Too many requests at once for this key', {
        retryAfter,
      });
    case 'model_busy':
      return refusal('model_busy', 'Every copy of the model is busy', { retryAfter });
    case 'bad_gateway':
      return refusal('all_providers_failed', 'All providers failed');
    case 'provider_request_failed':
      return refusal('provider_request_failed', 'The provider failed to answer the request');
    case 'provider_protocol_error':
      return refusal(
        'provider_protocol_error',
        'The provider answered with something that is not a valid chat answer',
      );
    case 'service_unavailable':
      // RFC 9110 §10.2.3: a 503 may say when to come back (docs/gateway-protocol.md §10.5).
      return refusal('provider_unavailable', 'No provider is online for this request', {
        retryAfter,
      });
    case 'gateway_timeout':
      return refusal('request_timeout', 'The request exceeded its time limit');
    case 'upstream_html':
      return () =>
        new Response(
          '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><p>upstream engine error</p></body></html>',
          { status: 502, headers: { 'content-type': 'text/html; charset=utf-8' } },
        );
    case 'upstream_text':
      return () =>
        new Response('Internal Server Error: the engine crashed', {
          status: 500,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        });
    case 'upstream_json':
      return () =>
        new Response(
          JSON.stringify({ detail: 'Engine rejected the input (upstream_json fault)' }),
          {
            status: 400,
            headers: { 'content-type': 'application/json' },
          },
        );
    case 'drop_connection':
      return () => {
        throw new ConnectionDropped();
      };
    default:
      return undefined;
  }
}

/**
 * `truncated_json`: a 200 answer whose body stops half-way — JSON, or the plain text a
 * transcription sends for `response_format: 'text'` (cut too, so a rule is never spent on an
 * answer it left whole).
 */
export async function truncateJsonBody(response: Response): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !(type.includes('json') || type.startsWith('text/plain'))) {
    return response;
  }
  const text = await response.text();
  return new Response(text.slice(0, Math.floor(text.length / 2)), {
    status: 200,
    headers: response.headers,
  });
}
