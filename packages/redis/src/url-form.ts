// docs/gateway-protocol.md §2.5 (the key's 4 slots, shared through Redis): the form of the Redis
// URL, one rule for every place that takes one (createRedisBudget, infergate-mcp's --redis).
import { kindOf } from '@infergate/core/internal';

/** The form every refusal of a Redis URL names. */
export const REDIS_URL_FORM =
  'a URL redis://HOST:PORT (rediss://HOST:PORT for TLS, USER:PASSWORD@ before HOST for an ACL user)';

/**
 * Why `value` is not a Redis URL (`must be a URL redis://…, got …`), or undefined when it is one:
 * a string that parses as a URL and starts with `redis://` or `rediss://`. Nothing of a refused
 * value is ever quoted, not even what looks like its scheme: a password pasted where the URL goes
 * (`hunter2:xyz`, `s3cr3t:pw@host`) parses as a URL whose "scheme" is the secret. Only a URL's
 * password can be masked in the messages that name the Redis, so a string is named by its length
 * alone, anything else by its kind (a number too: it may be a password typed as one).
 */
export function redisUrlFault(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be ${REDIS_URL_FORM}, got ${kindOf(value)}`;
  if (isRedisUrl(value)) return undefined;
  return `must be ${REDIS_URL_FORM}, got a value of ${value.length} characters (not shown: it may hold a password)`;
}

/** `redis:pw@host` parses with the scheme redis: but no `//`: its password could not be masked. */
function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\//i.test(value) && URL.canParse(value);
}
