// docs/gateway-protocol.md §2.5 (the key's 4 slots, shared through Redis): how the command names
// the Redis of `--redis URL` in what it prints, and which pieces of that URL it never prints.

/**
 * Whether `value` parses as a redis:// or rediss:// URL, so its password can be masked where it is
 * named (whether it is one the budget takes is core's `redisUrlFault`).
 */
function isRedisUrlForm(value: string): boolean {
  return /^rediss?:\/\//i.test(value) && URL.canParse(value);
}

/**
 * The Redis of `value` as messages name it, built from the parsed URL, never from the text:
 * `redis://***@cache:6379/2` (scheme, `***@` when it has credentials, host and port, and the
 * database when the path is one: `/N`; any other path is `/…`, a query `?…`). A value that is no
 * Redis URL, or one with an `@` after its host (a password holding an unencoded `/`, `?` or `#`
 * cuts the URL there: `redis://default:9/S3cret@cache` has the host `default:9`, and the password
 * in its path), is named by its length alone, as `redisUrlFault` names a refused one.
 */
export function shownRedisUrl(value: string): string {
  const hidden = `[a value of ${value.length} characters, not shown: it may hold a password]`;
  if (!isRedisUrlForm(value)) return hidden;
  const url = new URL(value);
  if (`${url.pathname}${url.search}${url.hash}`.includes('@')) return hidden;
  const credentials = url.username !== '' || url.password !== '' ? '***@' : '';
  let path = /^\/\d+$/.test(url.pathname) ? url.pathname : url.pathname.length > 1 ? '/…' : '';
  if (url.search !== '') path = `${path || '/'}?…`;
  return `${url.protocol}//${credentials}${url.host}${path}`;
}

/**
 * What of a `--redis` value is secret, to be replaced in every line the command prints: the value
 * itself (unless it is shown whole: nothing in it is hidden), the text between `//` and its last
 * `@` (its user information, wherever a parser would cut it) when it is `user:password`, and the password
 * (after that text's first `:`, and as parsed) or the lone user name (`token@host` may be the
 * password) — each as written and percent-decoded.
 *
 * A password or lone user name that could be an ordinary word of the command's lines (`redis`,
 * `default`, `infergate`: see `isPlainWord`) is hidden only where it is written as a URL's
 * credentials — after `:` or `//` and before `@` — not wherever the word appears, or a dev Redis's
 * password `redis` would turn `@infergate/redis` into `@infergate/[redacted]`. (A URL printed whole
 * has its credentials masked as `***@` by `redactUrlCredentials` before these are applied.)
 */
export function redisUrlSecrets(value: string): string[] {
  if (shownRedisUrl(value) === value) return [];
  const whole = [value];
  const bare: string[] = [];
  const slashes = value.indexOf('//');
  const at = value.lastIndexOf('@');
  if (slashes !== -1 && at > slashes) {
    const userInfo = value.slice(slashes + 2, at);
    const colon = userInfo.indexOf(':');
    // `user:password` whole; `:password` (no user name) is the password, by the rule below.
    if (colon > 0) whole.push(userInfo);
    bare.push(userInfo.slice(colon + 1));
  }
  if (URL.canParse(value)) {
    const { username, password } = new URL(value);
    bare.push(password === '' ? username : password);
  }
  const forms = (secrets: string[]) =>
    secrets.flatMap((secret) => [secret, percentDecoded(secret)]).filter((secret) => secret !== '');
  const found = [
    ...forms(whole),
    ...forms(bare).flatMap((secret) =>
      isPlainWord(secret) ? [`:${secret}@`, `//${secret}@`] : [secret],
    ),
  ];
  return [...new Set(found)];
}

/**
 * Whether a password or user name could be a word of ordinary text, and so is hidden only inside a
 * URL's credentials: shorter than 8 characters, or letters only and shorter than 16. Longer, or
 * holding a digit, symbol or space, it is unlikely anywhere but where the secret was put, and is
 * hidden wherever it appears (a message quoting it outside a URL included).
 */
function isPlainWord(secret: string): boolean {
  return secret.length < 8 || (secret.length < 16 && /^\p{L}+$/u.test(secret));
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
