// docs/gateway-protocol.md §2.2 (authentication), §2.3 (request headers we send).
import { refuseAuthorization } from '../call/authorization-header';
import { type GatewayHeaders, headerRecord } from '../call/option-groups';
import { GatewayError } from '../errors/errors';
import { quotedName } from '../errors/escape-control';
import { redactSecret } from '../errors/redact-secret';

/**
 * A request's headers: the client's, then the call's, then `authorization` (refused in both: the
 * client's at creation, `checkHeaders`; a call's when it begins, `checkCallOptions`). A plain
 * record: the client's headers and `authorization` checked once per client and copied per request,
 * a call's headers checked per call (fetch copies them into its own `Headers` anyway). Holds the
 * API key privately.
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
  ): Record<string, string> {
    // A `Headers` or pairs as an object (the call options' check took only what fetch takes).
    const callHeaders = init && headerRecord(init);
    const call =
      callHeaders === undefined || isEmpty(callHeaders)
        ? undefined
        : checked(callHeaders, this.#apiKey);
    this.#base ??= this.#checkedBase();
    // A call's header replaces the client's of the same name (names differing only by case are one
    // header, their values joined as fetch joins them). A call's `authorization` was refused when
    // the call began (`checkCallOptions`); the key's is set last all the same.
    // (Copied by `Object.assign`: V8 adds a field to a spread's copy by a slow path, µs a call.)
    const headers: Record<string, string> = call
      ? { ...this.#base, ...Object.fromEntries(call), authorization: this.#base.authorization! }
      : Object.assign({}, this.#base);
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    // Multipart: fetch labels a FormData with its boundary only when no type is given.
    else if (body) delete headers['content-type'];
    headers.accept = accept ?? 'application/json';
    return headers;
  }

  #checkedBase(): Record<string, string> {
    // (The client's were checked at creation: only the key can fail here.)
    const headers = checked(this.#clientHeaders, this.#apiKey);
    headers.set('authorization', authorization(this.#apiKey));
    return Object.fromEntries(headers);
  }
}

/** `headers` as fetch reads them; a header fetch refuses is named (`checkHeaders`). */
function checked(headers: Record<string, string>, apiKey: string): Headers {
  try {
    return new Headers(headers);
  } catch {
    checkHeaders(headers, apiKey);
    throw invalidHeader('a header fetch refuses');
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
 * its value: a header may carry a second credential (a proxy's key). The name is quoted as
 * `shownName` says: a pasted `Authorization: Bearer <key>` line is a name fetch refuses.
 */
export function checkHeaders(headers: Record<string, string>, apiKey: string | undefined): void {
  refuseAuthorization(headers);
  for (const name in headers) {
    if (sendable(name, headers[name] ?? '')) continue;
    const shown = shownName(name, apiKey);
    throw invalidHeader(
      sendable(name, '')
        ? `the value of ${shown} cannot be sent in a header (a character outside Latin-1, or a line break?)`
        : `${shown} is not a valid header name`,
    );
  }
}

/**
 * A refused header's name as quoted: `apiKey` redacted first (a cut key would escape redaction),
 * then only up to its first space or colon, the rest never shown. A name holding one is a pasted
 * header line (`Authorization: Bearer <token>`) or value (`Bearer <token>`), whose token may be
 * another credential than the client's key, which no redaction knows (rv-fix2 F6).
 */
function shownName(name: string, apiKey: string | undefined): string {
  const redacted = redactSecret(name, apiKey);
  const cut = redacted.search(/[\s:]/);
  if (cut < 0) return quotedName(redacted, 60, undefined);
  const prefix = redacted.slice(0, Math.min(cut, 40)) + (redacted[cut] === ':' ? ':' : '');
  return `${quotedName(`${prefix} …`, 60, undefined)} (the rest not shown: it may hold a credential)`;
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
