// docs/gateway-protocol.md §2.5 (the key's 4 slots, shared by every process on one Redis): the
// budget's options, checked before anything connects.
import {
  describeGiven,
  type ListsEveryKey,
  MAX_TIMEOUT_MS,
  readNumber,
  refusal,
  refuseUnknownOptions,
} from '@infergate/core/internal';
import type { RedisBudgetOptions } from './redis-budget';
import type { RedisTlsOptions } from './redis-connection';

const WHERE = 'createRedisBudget';

/** Every key `createRedisBudget` takes. */
const BUDGET_OPTION_KEYS = [
  'url',
  'tls',
  'leaseTtlMs',
  'keyPrefix',
  'onRedisFailure',
  'maxPollIntervalMs',
  'commandTimeoutMs',
  'warn',
] as const satisfies readonly (keyof RedisBudgetOptions)[];
true satisfies ListsEveryKey<RedisBudgetOptions, typeof BUDGET_OPTION_KEYS>;

/** Every key of `tls` (node:tls's options the connection passes on): `RedisTlsOptions`, whole. */
const TLS_KEYS = [
  'ca',
  'cert',
  'key',
  'servername',
  'rejectUnauthorized',
] as const satisfies readonly (keyof RedisTlsOptions)[];
true satisfies ListsEveryKey<RedisTlsOptions, typeof TLS_KEYS>;

/** A lease shorter than this expires between two refreshes at the first pause (GC, a slow network). */
const MIN_LEASE_TTL_MS = 1000;
/** Where the refusals say the option was given. */
const PLACE = `${WHERE} option` as const;

/** The refusal of `field`'s value: the option, where, the rule and what was given. */
function refused(field: string, rule: string, value: unknown) {
  return refusal(PLACE, field, `must be ${rule}, got ${describeGiven(value)}`);
}

/** Refuses `value` (when given) unless it is an integer of ms from `min` to the longest timer. */
function checkMs(field: string, value: unknown, min: number): void {
  if (value !== undefined) {
    readNumber(value, { kind: 'integer', min, max: MAX_TIMEOUT_MS, unit: 'ms' }, field, PLACE);
  }
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
  refuseUnknownOptions(options, BUDGET_OPTION_KEYS, WHERE, 'client option');
  if (typeof options.url !== 'string')
    throw refused('url', 'a redis:// or rediss:// URL', options.url);
  const { tls } = options;
  if (tls !== undefined) {
    if (typeof tls !== 'object' || tls === null || Array.isArray(tls)) {
      throw refused('tls', `an object (${TLS_KEYS.join(', ')})`, tls);
    }
    refuseUnknownOptions(tls, TLS_KEYS, `${WHERE}'s tls`, 'client option');
  }
  checkMs('leaseTtlMs', options.leaseTtlMs, MIN_LEASE_TTL_MS);
  checkMs('commandTimeoutMs', options.commandTimeoutMs, 1);
  checkMs('maxPollIntervalMs', options.maxPollIntervalMs, 1);
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
