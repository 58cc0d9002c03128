// docs/gateway-protocol.md §2.3 (the key goes into no header but `authorization`, and into no
// message).
import { redactKey } from '@infergate/core/internal';

/**
 * A URL's user information (`user:password@`, `:password@`, `token@`) after `//` (`\/\/` when
 * JSON-escaped), up to the last `@` before the host, whatever precedes the `//`: a scheme, a
 * mistyped one (`redis//`) or none.
 */
const AFTER_SLASHES = /((?:\\?\/){2})[^\s/?#"'`<>]*@/g;

/**
 * User information with a password and no `//` before it (`redis:user:pw@host`, `:pw@host`,
 * `user:pw@host`): a word holding a `:` before its last `@`, something after that `@`. A word
 * without `:` (`me@example.test`) or with a path before its `@` is not one.
 */
const LOOSE =
  /(?<![^\s"'`<>()[\]{},;=/\\])[^\s"'`<>()[\]{},;=/\\]*:[^\s"'`<>()[\]{},;=/\\]*@(?=[^\s@])/g;

/**
 * `redis://:password@host:6379` → `redis://***@host:6379` (the scheme, host and path stay); the
 * same in URL-like text without a well-formed scheme (`redis//:pw@host` → `redis//***@host`,
 * `:pw@host` → `***@host`).
 */
export function redactUrlCredentials(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(AFTER_SLASHES, '$1***@').replace(LOOSE, '***@');
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
