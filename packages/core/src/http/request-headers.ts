// docs/gateway-protocol.md §2.2 (authentication), §2.3 (request headers we send).
import { type GatewayHeaders, headerRecord } from '../call/option-groups';
import { GatewayError } from '../errors/errors';
import { quotedName } from '../errors/escape-control';

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
  /** The `authorization` value, checked on first use (an error is not cached): the key never changes. */
  #authorization: string | undefined;

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
    } catch {
      // The client's were checked at creation: a call's header is the one to name.
      checkHeaders(callHeaders ?? this.#clientHeaders, this.#apiKey);
      throw invalidHeader('a header fetch refuses');
    }
    this.#authorization ??= authorization(this.#apiKey);
    headers.set('authorization', this.#authorization);
    return headers;
  }
}

const invalidHeader = (problem: string) =>
  new GatewayError({
    code: 'configuration_error',
    message: `Invalid header in \`headers\`: ${problem}`,
    field: 'headers',
  });

/**
 * Refuses (`configuration_error`) a header fetch cannot send, naming it and what is wrong, never
 * its value: a header may carry a second credential (a proxy's key). The name is quoted with
 * `apiKey` redacted, before the cut (a cut key would escape redaction): a pasted
 * `Authorization: Bearer <key>` line is a name fetch refuses.
 */
export function checkHeaders(headers: Record<string, string>, apiKey: string | undefined): void {
  for (const name in headers) {
    if (sendable(name, headers[name] ?? '')) continue;
    const shown = quotedName(name, 60, apiKey);
    throw invalidHeader(
      sendable(name, '')
        ? `the value of ${shown} cannot be sent in a header (a line break?)`
        : `${shown} is not a valid header name`,
    );
  }
}

function sendable(name: string, value: string): boolean {
  try {
    new Headers([[name, value]]);
    return true;
  } catch {
    return false;
  }
}

/** The `authorization` header of `apiKey`; `configuration_error` when it cannot be sent. */
export function authorization(apiKey: string): string {
  const value = `Bearer ${apiKey}`;
  // The runtime's message would quote the key: say what is wrong without it.
  if (sendable('authorization', value)) return value;
  throw new GatewayError({
    code: 'configuration_error',
    message: 'The API key contains characters that cannot be sent in an HTTP header',
    field: 'apiKey',
  });
}

function isEmpty(record: Record<string, string>): boolean {
  for (const _ in record) return false;
  return true;
}
