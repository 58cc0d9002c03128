import { GatewayError } from '@infergate/core';

/** Shorter secrets are not replaced: they would match ordinary text (core's rule too). */
const MIN_SECRET_LENGTH = 4;

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
 * Text this server or its command prints or returns, made safe to show: URL credentials (a
 * `--redis` URL's password) become `***`, and `secrets` as well as every live gateway client's API
 * key become `[redacted]`. The keys go through core's own redactor, which also knows their
 * JSON-escaped, URL-encoded and base64 forms; core applies it to every `GatewayError` it builds and
 * has no other public entry to it.
 */
export function redactMessage(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = redactUrlCredentials(text);
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= MIN_SECRET_LENGTH) {
      out = out.split(secret).join('[redacted]');
    }
  }
  return new GatewayError({ code: 'configuration_error', message: out }).message;
}
