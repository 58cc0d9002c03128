// docs/gateway-protocol.md §2.3 (the key goes in `authorization` only), §2.5 (the per-key budget).
import { GatewayError } from '../errors/errors';

/**
 * Refuses (`configuration_error`) an `Authorization` header (any case) in the client's or a call's
 * `headers`: the key is `apiKey`'s, and it also decides the per-key budget (its 4 slots), so a
 * request sent with another key would be billed to that key while counted against this one.
 * Replacing it silently would bill the wrong key. Never quotes the value: it is a credential.
 */
export function refuseAuthorization(headers: Record<string, string>): void {
  for (const name in headers) {
    if (name.toLowerCase() !== 'authorization') continue;
    throw new GatewayError({
      code: 'configuration_error',
      message:
        'The `Authorization` header is set by `apiKey`; use one client (provider, model) per key',
      field: 'headers',
    });
  }
}
