// docs/gateway-protocol.md §2.3 (the key goes into no header but `authorization`, and into no
// message).
import { redactKey } from '@infergate/core/internal';

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
 * key become `[redacted]`, by core's redactor (raw, JSON-escaped, URL-encoded and base64 forms).
 */
export function redactMessage(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = redactUrlCredentials(text);
  for (const secret of secrets) {
    if (secret !== undefined) out = redactKey(out, secret);
  }
  // Without a key of its own, core's redactor still replaces every live client's key.
  return redactKey(out);
}
