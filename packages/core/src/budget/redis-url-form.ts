// docs/gateway-protocol.md §2.5 (the key's 4 slots, shared through Redis): the form of the Redis
// URL, one rule for every place that takes one (@infergate/redis's createRedisBudget, and
// infergate-mcp's --redis, which checks it before that optional package is loaded).
import { kindOf } from '../call/option-groups';

/** The form every refusal of a Redis URL names. */
const REDIS_URL_FORM =
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
  if (!isRedisUrl(value)) {
    return `must be ${REDIS_URL_FORM}, got a value of ${value.length} characters (not shown: it may hold a password)`;
  }
  const wrong = wrongPart(new URL(value));
  return wrong === undefined
    ? undefined
    : `must be ${REDIS_URL_FORM}, got one whose ${wrong} (not shown: it may hold a password)`;
}

/** The highest database index SELECT takes (Redis reads it as a 32-bit signed integer). */
const MAX_DATABASE_INDEX = 2 ** 31 - 1;

/**
 * The part of a parsed redis:// URL that the Redis client would refuse, or silently ignore, in
 * words that quote nothing of it: the path (only a database index `/N` may be there: the client
 * reads any other as a number, or fails), the %-encoding of the user name and password (the
 * client decodes them), a query or fragment (the client reads neither: `?password=…` would be
 * ignored, the budget connecting without it).
 */
function wrongPart(url: URL): string | undefined {
  const { pathname, search, hash } = url;
  if (pathname.length > 1) {
    const index = /^\/\d+$/.test(pathname) ? Number(pathname.slice(1)) : Number.NaN;
    if (!(index <= MAX_DATABASE_INDEX)) {
      return `path is not a database index (only /0 to /${MAX_DATABASE_INDEX} may follow HOST:PORT, or nothing for database 0)`;
    }
  }
  for (const [part, text] of [
    ['user name', url.username],
    ['password', url.password],
  ] as const) {
    if (!decodes(text)) {
      return `${part} is not valid %-encoding (a % must start %XX, two hex digits of UTF-8: write a % itself as %25)`;
    }
  }
  if (search !== '' || hash !== '') {
    return `${search !== '' ? 'query (?…)' : 'fragment (#…)'} would be ignored by the Redis client: put USER:PASSWORD@ before HOST (%-encoded) and the database as the path /N`;
  }
  return undefined;
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** `redis:pw@host` parses with the scheme redis: but no `//`: its password could not be masked. */
function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\//i.test(value) && URL.canParse(value);
}
