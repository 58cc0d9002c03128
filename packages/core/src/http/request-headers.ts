// docs/gateway-protocol.md §2.2 (authentication), §2.3 (request headers we send).
import { type GatewayHeaders, headerRecord } from '../call/option-groups';
import { describeCause, GatewayError } from '../errors/errors';
import { redactSecret } from '../errors/redact-secret';

/**
 * A request's headers: the client's, then the call's, then `authorization`. Without call headers
 * they are a plain record, checked once per client and copied per request (fetch copies them into
 * its own `Headers` anyway); call headers are checked per call. Holds the API key privately.
 */
export class RequestHeaders {
  readonly #clientHeaders: Record<string, string>;
  readonly #apiKey: string;
  /** Client headers + authorization, lowercase names; built on first use (an error is not cached). */
  #base: Record<string, string> | undefined;

  constructor(clientHeaders: Record<string, string>, apiKey: string) {
    this.#clientHeaders = clientHeaders;
    this.#apiKey = apiKey;
  }

  /** The headers of one request; `configuration_error` when a header cannot be sent. */
  for(
    body: string | FormData | undefined,
    accept: string | undefined,
    init: GatewayHeaders | undefined,
  ): Headers | Record<string, string> {
    // A `Headers` or pairs as an object (the call options' check took only what fetch takes).
    const callHeaders = init && headerRecord(init);
    if (callHeaders === undefined || isEmpty(callHeaders)) {
      this.#base ??= Object.fromEntries(this.#checked(undefined));
      const headers: Record<string, string> = { ...this.#base };
      if (typeof body === 'string') headers['content-type'] = 'application/json';
      // Multipart: fetch labels a FormData with its boundary only when no type is given.
      else if (body) delete headers['content-type'];
      headers.accept = accept ?? 'application/json';
      return headers;
    }
    const headers = this.#checked(callHeaders);
    if (typeof body === 'string') headers.set('content-type', 'application/json');
    else if (body) headers.delete('content-type');
    headers.set('accept', accept ?? 'application/json');
    return headers;
  }

  #checked(callHeaders: Record<string, string> | undefined): Headers {
    let headers: Headers;
    try {
      headers = new Headers(this.#clientHeaders);
      // A call's header replaces the client's of the same name; names differing only by case
      // are one header, their values joined as fetch joins them.
      if (callHeaders) {
        for (const [name, value] of new Headers(callHeaders)) headers.set(name, value);
      }
    } catch (cause) {
      throw new GatewayError({
        code: 'configuration_error',
        message: `Invalid header in \`headers\`: ${redactSecret(describeCause(cause), this.#apiKey)}`,
        field: 'headers',
      });
    }
    try {
      headers.set('authorization', `Bearer ${this.#apiKey}`);
    } catch {
      // The runtime's message would quote the key: say what is wrong without it.
      throw new GatewayError({
        code: 'configuration_error',
        message: 'The API key contains characters that cannot be sent in an HTTP header',
        field: 'apiKey',
      });
    }
    return headers;
  }
}

function isEmpty(record: Record<string, string>): boolean {
  for (const _ in record) return false;
  return true;
}
