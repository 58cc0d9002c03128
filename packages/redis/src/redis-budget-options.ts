// docs/gateway-protocol.md §2.5 (the key's 4 slots, shared by every process on one Redis): the
// budget's options, checked before anything connects.
import type { OptionField } from '@infergate/core';
import {
  describeGiven,
  type EveryKey,
  kindOf,
  MAX_TIMEOUT_MS,
  readNumber,
  redisUrlFault,
  refusal,
  refuseUnknownOptions,
} from '@infergate/core/internal';
import type { RedisBudgetOptions } from './redis-budget';
import type { RedisTlsOptions } from './redis-connection';

const WHERE = 'createRedisBudget';

/** A lease shorter than this expires between two refreshes at the first pause (GC, a slow network). */
const MIN_LEASE_TTL_MS = 1000;

/** An integer of ms from `min` to the longest timer. */
const msFrom = (min: number): OptionField => ({
  kind: 'integer',
  min,
  max: MAX_TIMEOUT_MS,
  unit: 'ms',
});

/**
 * Every key `createRedisBudget` takes, each with its rule: the numbers' read by core's
 * `readNumber`, the others (`{}`) checked one by one below.
 */
const BUDGET_OPTIONS: EveryKey<RedisBudgetOptions, OptionField> = {
  url: {},
  tls: {},
  leaseTtlMs: msFrom(MIN_LEASE_TTL_MS),
  keyPrefix: {},
  onRedisFailure: {},
  maxPollIntervalMs: msFrom(1),
  commandTimeoutMs: msFrom(1),
  warn: {},
};

/** Every key of `tls` (node:tls's options the connection passes on): `RedisTlsOptions`, whole. */
const TLS_KEYS = Object.keys({
  ca: true,
  cert: true,
  key: true,
  passphrase: true,
  servername: true,
  rejectUnauthorized: true,
} satisfies EveryKey<RedisTlsOptions>);

/** Where the refusals say the option was given. */
const PLACE = `${WHERE} option` as const;

/** The refusal of `field`'s value: the option, where, the rule and what was given. */
function refused(field: string, rule: string, value: unknown) {
  return refusal(PLACE, field, `must be ${rule}, got ${describeGiven(value)}`);
}

/**
 * Refuses, before anything connects, an unknown key (naming the closest known one, by core's
 * check) and a value that would do something else than asked: a TTL that lets leases expire while
 * held (more calls than the limit), a timeout that is no number (Redis never used), a `warn` that
 * is not a function. `configuration_error`, naming the option, what was given and the rule.
 */
export function checkRedisBudgetOptions(options: RedisBudgetOptions): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw refused('options', 'an object ({ url, … })', options);
  }
  refuseUnknownOptions(options, Object.keys(BUDGET_OPTIONS), WHERE, 'client option');
  const urlFault = redisUrlFault(options.url);
  if (urlFault !== undefined) throw refusal(PLACE, 'url', urlFault);
  const { tls } = options;
  if (tls !== undefined) {
    if (typeof tls !== 'object' || tls === null || Array.isArray(tls)) {
      throw refused('tls', `an object (${TLS_KEYS.join(', ')})`, tls);
    }
    refuseUnknownOptions(tls, TLS_KEYS, `${WHERE}'s tls`, 'client option', undefined, 'tls.');
    checkTlsTypes(tls);
    checkPemFields(tls);
  }
  for (const [key, field] of Object.entries(BUDGET_OPTIONS)) {
    const value: unknown = options[key as keyof RedisBudgetOptions];
    if (field.kind !== undefined && value !== undefined) readNumber(value, field, key, PLACE);
  }
  const { keyPrefix, warn } = options;
  const onRedisFailure: unknown = options.onRedisFailure;
  if (keyPrefix !== undefined && (typeof keyPrefix !== 'string' || keyPrefix === '')) {
    throw refused('keyPrefix', 'a non-empty string', keyPrefix);
  }
  if (onRedisFailure !== undefined && onRedisFailure !== 'fallback' && onRedisFailure !== 'error') {
    // A string is named (it is one of ours, never a secret): the typo shows.
    const got =
      typeof onRedisFailure === 'string' ? JSON.stringify(onRedisFailure.slice(0, 40)) : undefined;
    throw refusal(
      PLACE,
      'onRedisFailure',
      `must be 'fallback' or 'error', got ${got ?? describeGiven(onRedisFailure)}`,
    );
  }
  if (warn !== undefined && typeof warn !== 'function') {
    throw refused('warn', 'a function (message: string) => void', warn);
  }
}

/** A PEM's text or bytes: what Node takes for `ca`, `cert` and `key`, alone or in an array. */
const isPemValue = (value: unknown): boolean =>
  typeof value === 'string' || ArrayBuffer.isView(value); // (a Buffer, any typed array)

/** A `key` item Node also takes: `{ pem, passphrase? }` (a key with its own passphrase). */
const isKeyObject = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return false;
  const { pem, passphrase } = value as { pem?: unknown; passphrase?: unknown };
  return isPemValue(pem) && (passphrase === undefined || typeof passphrase === 'string');
};

/**
 * Refuses a `tls` value of the wrong type. Node refuses it only when a connection is made, and a
 * `servername` at that only once the socket is open: taken for an outage, the budget counted per
 * process and each attempt left a socket open. The message names the field and the type given
 * (never the value: `key` is a private key).
 */
function checkTlsTypes(tls: RedisTlsOptions): void {
  const wrong = (field: string, rule: string, got: string) =>
    refusal(PLACE, `tls.${field}`, `must be ${rule}, got ${got}`);
  const { servername, passphrase, rejectUnauthorized } = tls as Record<string, unknown>;
  if (servername !== undefined && (typeof servername !== 'string' || servername === '')) {
    const got = servername === '' ? 'an empty string' : kindOf(servername);
    throw wrong('servername', "a non-empty string (the server's host name)", got);
  }
  if (passphrase !== undefined && typeof passphrase !== 'string') {
    throw wrong('passphrase', 'a string', kindOf(passphrase));
  }
  if (rejectUnauthorized !== undefined && typeof rejectUnauthorized !== 'boolean') {
    throw wrong('rejectUnauthorized', 'true or false (a boolean)', kindOf(rejectUnauthorized));
  }
  for (const field of ['ca', 'cert', 'key'] as const) {
    const value: unknown = tls[field];
    if (value === undefined) continue;
    const items: unknown[] = Array.isArray(value) ? value : [value];
    const fits = (item: unknown) =>
      isPemValue(item) || (field === 'key' && Array.isArray(value) && isKeyObject(item));
    const bad = items.findIndex((item) => !fits(item));
    if (bad >= 0) {
      throw wrong(
        field,
        field === 'key'
          ? 'PEM text (a string), a Buffer or Uint8Array, or an array of these or of { pem, passphrase? }'
          : 'PEM text (a string), a Buffer or Uint8Array, or an array of these',
        Array.isArray(value) ? `an array holding ${kindOf(items[bad])}` : kindOf(value),
      );
    }
  }
}

/**
 * Refuses a `tls.ca`, `tls.cert` or `tls.key` string (alone or in an array) that is no PEM text:
 * a file path given instead of the file's text would otherwise fail at every connection attempt
 * (`ca` even as an untrusted server certificate, whose hint is to pass `tls.ca`). The message
 * names the field and the string's length, never its text (a private key). Buffers pass: the
 * file read without an encoding.
 */
function checkPemFields(tls: RedisTlsOptions): void {
  for (const field of ['ca', 'cert', 'key'] as const) {
    const value: unknown = tls[field];
    const strings = (Array.isArray(value) ? value : [value])
      .map((item) => (isKeyObject(item) ? (item as { pem: unknown }).pem : item))
      .filter((item): item is string => typeof item === 'string');
    const notPem = strings.find((text) => !text.includes('-----BEGIN'));
    if (notPem !== undefined) {
      throw refusal(
        PLACE,
        `tls.${field}`,
        `must be the PEM text (-----BEGIN …), not a file path: pass readFileSync(path, 'utf8'), got a string of ${notPem.length} characters without -----BEGIN (not shown)`,
      );
    }
  }
}

const closeRefused = (field: string, rule: string, value: unknown) =>
  refusal('budget.close() option', field, `must be ${rule}, got ${describeGiven(value)}`);

/** Every key `budget.close()` takes. */
const CLOSE_OPTIONS: EveryKey<{ signal?: AbortSignal }> = { signal: true };

/**
 * Refuses `close()`'s options before the budget closes anything (an unknown key naming the closest,
 * a signal given bare or as something else): ignored, a bound the caller meant would not apply and
 * the shutdown would wait for every call in flight. `configuration_error`.
 */
export function checkCloseOptions(options: unknown): void {
  if (options === undefined) return;
  if (options instanceof AbortSignal) {
    const rule =
      'must be an object: pass the AbortSignal as `{ signal }`, got the AbortSignal itself';
    throw refusal('budget.close() option', 'options', rule);
  }
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw closeRefused('options', 'an object ({ signal })', options);
  }
  refuseUnknownOptions(options, Object.keys(CLOSE_OPTIONS), 'budget.close', 'client option');
  const { signal } = options as { signal?: unknown };
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw closeRefused('signal', 'an AbortSignal (e.g. AbortSignal.timeout(25_000))', signal);
  }
}
