import { GatewayError } from '@infergate/core';

// import { redactKey } from '@infergate/core/internal';

// TEMPORARY until `@infergate/core/internal` exports `redactKey` (a parallel change to core): then
// enable the import above and delete from here to the END TEMPORARY line. Core's `redactKey` also
// knows the key's JSON-escaped, URL-encoded and base64 forms; this stand-in knows the raw one.
function redactKey(text: string, key: string): string {
  return key.length < 4 ? text : text.split(key).join('[redacted]');
}
// END TEMPORARY

/**
 * A URL's user information (`user:password@`, `:password@`, `token@`), up to the last `@` before
 * the host; `//` may be JSON-escaped (`\/\/`).
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:(?:\\?\/){2})[^\s/?#"'`<>]*@/gi;

/** `redis://:password@host:6379` → `redis://***@host:6379` (the scheme, host and path stay). */
export function redactUrlCredentials(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1***@');
}

/**
 * Every live gateway client's key, in every form core knows: core redacts them from each
 * `GatewayError` it builds, which is its one entry to the redactor that holds them.
 */
function redactLiveClientKeys(text: string): string {
  return new GatewayError({ code: 'configuration_error', message: text }).message;
}

/**
 * Text this server or its command prints or returns, made safe to show: URL credentials (a
 * `--redis` URL's password) become `***`, and `secrets` as well as every live gateway client's API
 * key become `[redacted]`, by core's redactor (raw, JSON-escaped, URL-encoded and base64 forms).
 */
export function redactMessage(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = redactUrlCredentials(text);
  for (const secret of secrets) {
    if (secret !== undefined) out = redactKey(out, secret);
  }
  return redactLiveClientKeys(out);
}
