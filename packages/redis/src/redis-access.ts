import { GatewayError } from '@infergate/core';
import { type LeaseKeys, leaseKeys } from './lease-scripts';

/**
 * Whether this Redis lets the budget in: the credentials, the TLS certificate, and the commands,
 * keys and channels its ACL user may use. A refusal is a configuration error, not an outage: the
 * calls fail with it (whatever `onRedisFailure` says) instead of silently counting per process.
 * No message here quotes the URL: it may hold the password.
 */

/** The id whose keys and channels the check works on (budget ids are `ig-…` hashes). */
const PROBE_ID = 'access-check';

export function probeKeys(keyPrefix: string): LeaseKeys {
  return leaseKeys(keyPrefix, PROBE_ID);
}

/**
 * Every command the lease scripts run, each called once the harmless way on the probe's keys
 * (`KEYS[1]` a sorted set, `KEYS[2]` a counter, `KEYS[3]` a string; all deleted at the end) and
 * channel (`ARGV[1]`, nobody listens). A test checks it names exactly the scripts' commands.
 */
const PROBED: readonly (readonly [command: string, args: string])[] = [
  ['TIME', ''],
  ['EXISTS', 'KEYS[1]'],
  ['ZADD', "KEYS[1], 0, 'probe'"],
  ['ZSCORE', "KEYS[1], 'probe'"],
  ['ZRANK', "KEYS[1], 'probe'"],
  ['ZCARD', 'KEYS[1]'],
  ['ZRANGE', 'KEYS[1], 0, -1'],
  ['ZRANGEBYSCORE', "KEYS[1], '-inf', '+inf'"],
  ['ZREMRANGEBYSCORE', "KEYS[1], '-inf', '-inf'"],
  ['ZREM', "KEYS[1], 'probe'"],
  ['INCR', 'KEYS[2]'],
  ['INCRBY', 'KEYS[2], 1'],
  ['DECR', 'KEYS[2]'],
  ['SET', "KEYS[3], '1', 'PX', 1000"],
  ['PTTL', 'KEYS[3]'],
  ['PUBLISH', "ARGV[1], 'probe'"],
  ['DEL', 'KEYS[1], KEYS[2], KEYS[3]'],
];

/** The commands the scripts run inside `EVAL`. */
export const SCRIPT_COMMANDS: readonly string[] = PROBED.map(([command]) => command);

/** Commands the check's script asks when the user may run them (the README's ACL line grants
 *  them; without them it learns less, refuses nothing): INFO, whether a cluster, and the
 *  eviction policy. */
export const OPTIONAL_COMMANDS: readonly string[] = ['INFO'];

/** Commands sent outside scripts: the scripts themselves, and the pub/sub of wake-ups and census. */
export const CONNECTION_COMMANDS: readonly string[] = ['EVAL', 'SUBSCRIBE', 'UNSUBSCRIBE'];

/** What the probe script answers on a Redis Cluster node (its keys served there or not). */
const CLUSTER_MARK = 'cluster_enabled:1';

/** KEYS: a sorted set, a counter, a string. ARGV: a channel. Returns {command, error, policy}:
 *  the first command refused ('' when none) and Redis's `maxmemory_policy` ('' when unknown).
 *  First asks INFO whether this is a Redis Cluster node, and its eviction policy (the user may
 *  lack +info: then only a MOVED or CLUSTERDOWN reply tells a cluster, `refusalOf`, and the
 *  policy is not known). */
export const PROBE_SCRIPT = `
local info = redis.pcall('INFO', 'cluster')
if type(info) == 'string' and string.find(info, '${CLUSTER_MARK}', 1, true) then
  return {'INFO', '${CLUSTER_MARK}', ''}
end
local memory = redis.pcall('INFO', 'memory')
local policy = type(memory) == 'string' and string.match(memory, 'maxmemory_policy:([%w%-]+)') or ''
local failed
local function try(...)
  if failed then return end
  local answer = redis.pcall(...)
  if type(answer) == 'table' and answer.err then failed = {(...), answer.err} end
end
${PROBED.map(([command, args]) => `try('${command}'${args === '' ? '' : `, ${args}`})`).join('\n')}
failed = failed or {'', ''}
return {failed[1], failed[2], policy}
`;

/** What the access check needs of the connection (the script one and the pub/sub one). */
export interface AccessProbe {
  evalProbe(keys: string[], args: string[]): Promise<unknown>;
  subscribeProbe(channel: string): Promise<void>;
  /** Redis evicts any key when full (`allkeys-*`, named): the budget's leases included. */
  onAllKeysEviction(policy: string): void;
}

/**
 * Runs every command the budget needs, once, as its user: `undefined` when all may run, else the
 * refusal naming the first one missing (or the keys or channels it may not use).
 */
export async function checkAccess(
  probe: AccessProbe,
  keys: LeaseKeys,
): Promise<GatewayError | undefined> {
  const subscribing = probe.subscribeProbe(keys.census).then(
    () => undefined,
    (cause: unknown) => refusalOf(cause, 'SUBSCRIBE'),
  );
  let scripts: GatewayError | undefined;
  try {
    const answer = await probe.evalProbe(
      [keys.holders, keys.seq, keys.settle],
      [`${keys.wake}probe`],
    );
    if (Array.isArray(answer) && answer.length === 3) {
      const [command, error, policy] = answer.map(String) as [string, string, string];
      if (error === CLUSTER_MARK) return clusterRefused('INFO cluster says cluster_enabled:1');
      if (policy.startsWith('allkeys-')) probe.onAllKeysEviction(policy);
      if (command !== '') {
        scripts = refusalOf(new Error(error), command);
        // Not the user's rights: Redis's state (READONLY on a replica, OOM, LOADING, BUSY), a
        // failure that ends when Redis recovers.
        if (scripts === undefined) throw new RedisErrorReply(error);
      }
    }
  } catch (cause) {
    scripts = refusalOf(cause, 'EVAL');
    if (scripts === undefined) throw cause;
  }
  return scripts ?? (await subscribing);
}

/** An error reply the probe script caught (`redis.pcall`): treated as node-redis's `ErrorReply`. */
export class RedisErrorReply extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisErrorReply';
  }
}

/**
 * The refusal an error from Redis or the TLS handshake means, or `undefined` when it is something
 * else (an outage, a timeout). `command`: the one that failed, when known.
 */
export function refusalOf(cause: unknown, command?: string): GatewayError | undefined {
  const message = cause instanceof Error ? cause.message : String(cause);
  const code = (cause as { code?: unknown } | null)?.code;
  if (/^(WRONGPASS|NOAUTH)\b/.test(message)) {
    return refusal(
      `Redis refused the budget's credentials ("${message}"): check the user name and password in \`url\` (URL-encoded)`,
      cause,
    );
  }
  // Redis's TLS alert: it refused our side of the handshake (checked first: the codes say CERTIFICATE).
  if (typeof code === 'string' && TLS_ALERT_CODE.test(code)) return handshakeRefused(code, cause);
  if (typeof code === 'string' && TLS_CERTIFICATE_CODES.test(code)) {
    return refusal(
      `Redis's TLS certificate was not accepted (${code}: ${message}): for a private CA, pass it as \`tls.ca\``,
      cause,
    );
  }
  // (Outside a script Redis says "no permissions to access one of the keys"; inside, "can't access".)
  if (/access one of the keys|can't access at least one of the keys/.test(message)) {
    return refusal(
      `the Redis user may not use the budget's keys ("${message}"): grant the key pattern listed in @infergate/redis's README (\`~{<keyPrefix>:*}:*\`)`,
      cause,
    );
  }
  if (/access one of the channels|can't publish to the channel/.test(message)) {
    return refusal(
      `the Redis user may not use the budget's channels ("${message}"): grant the channel pattern listed in @infergate/redis's README (\`&{<keyPrefix>:*}:*\`)`,
      cause,
    );
  }
  const named = /no permissions to run the '([^']+)' command/.exec(message)?.[1];
  if (named !== undefined || /can't run this command|^NOPERM\b/.test(message)) {
    return commandRefused((named ?? command ?? 'a command').toUpperCase(), message, cause);
  }
  // A cluster node redirecting (or refusing) a key not served here: the budget needs one primary.
  // (A URL's database path makes a cluster node refuse SELECT at connect, before any key.)
  if (
    /^(MOVED|ASK|CLUSTERDOWN|CROSSSLOT|TRYAGAIN)\b|^ERR SELECT is not allowed in cluster mode/.test(
      message,
    )
  ) {
    return clusterRefused(`it answered "${message.split('\n')[0]}"`, cause);
  }
  // SELECT of the URL's path at connect: a database this Redis lacks never comes by waiting.
  if (/^ERR (DB index is out of range|invalid DB index)\b/.test(message)) {
    return refusal(
      `Redis has no database of the index \`url\` selects (its path /N after HOST:PORT; "${message}"): use one of its databases (0 to its \`databases\` setting less one: 0 to 15 by default), or no path for database 0`,
      cause,
    );
  }
  if (/^ERR unknown command\b/.test(message)) {
    return refusal(
      `this Redis does not support ${command ?? 'a command'}, which the shared budget needs ("${message}")`,
      cause,
    );
  }
  return undefined;
}

/** Node's code for a TLS alert Redis sent (`ERR_SSL_TLSV1_ALERT_UNKNOWN_CA`, `…_CERTIFICATE_REQUIRED`). */
const TLS_ALERT_CODE = /^ERR_SSL_\w*_ALERT_/;

/**
 * Redis ended the handshake with an alert: it did not accept the client certificate
 * (`tls-auth-clients yes`), required one and got none, or refused the handshake otherwise. Only
 * the code is quoted, in the message and the cause: OpenSSL's text names its source files.
 */
function handshakeRefused(code: string, error: unknown): GatewayError {
  const cause = Object.assign(new Error(code), { code, name: (error as Error).name ?? 'Error' });
  if (code.endsWith('_CERTIFICATE_REQUIRED')) {
    return refusal(
      `Redis requires a client certificate and the budget sent none (${code}): pass both \`tls.cert\` and its \`tls.key\` (PEM text; a certificate without its key is not sent)`,
      cause,
    );
  }
  if (
    /_ALERT_(UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_|UNSUPPORTED_CERTIFICATE|ACCESS_DENIED|DECRYPT_ERROR)/.test(
      code,
    )
  ) {
    return refusal(
      `Redis refused the client certificate (${code}): pass as \`tls.cert\` and \`tls.key\` a certificate signed by a CA Redis trusts (its tls-ca-cert-file), with its key`,
      cause,
    );
  }
  return refusal(
    `Redis refused the TLS handshake (${code}): check \`tls\` (the client certificate, \`tls.cert\` / \`tls.key\`) against Redis's TLS settings`,
    cause,
  );
}

/** Node's codes for a certificate the TLS handshake did not accept. */
const TLS_CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

function commandRefused(command: string, message: string, cause?: unknown): GatewayError {
  return refusal(
    `the Redis user cannot run ${command}, which the shared budget needs ("${message}"): grant the commands listed in @infergate/redis's README`,
    cause,
  );
}

function clusterRefused(evidence: string, cause?: unknown): GatewayError {
  return refusal(
    `\`url\` reaches a Redis Cluster (${evidence}), which the shared budget does not support (a cluster's PUBLISH reaches only one node's subscribers, and this client follows no redirection): point it at a single primary (a standalone Redis, one behind Sentinel, or a managed primary endpoint that fails over)`,
    cause,
  );
}

function refusal(reason: string, cause: unknown): GatewayError {
  return new GatewayError({
    code: 'configuration_error',
    message: `@infergate/redis: ${reason}. Every call of this budget fails with this error; fix the access and create the budget again.`,
    ...(cause instanceof Error ? { cause: safeCause(cause) } : {}),
  });
}

/** Only the message and code of the cause: never an object that might carry the URL. */
function safeCause(cause: Error): Error {
  const copy = new Error(cause.message);
  copy.name = cause.name;
  const { code } = cause as { code?: unknown };
  if (typeof code === 'string') Object.assign(copy, { code });
  return copy;
}
