// docs/gateway-protocol.md §2.5 (the key's 4 slots, shared across processes through Redis).
import { GatewayError, type KeyBudget } from '@infergate/core';
import { shownRedisUrl } from './redis-url-shown';

type RedisModule = typeof import('@infergate/redis');

/** The install line `--redis` needs, in the messages that name it. */
export const REDIS_INSTALL =
  'npm install @infergate/redis beside @infergate/mcp (with npx: npx -p @infergate/mcp -p @infergate/redis infergate-mcp --redis URL)';

/** Whether `error` says that `@infergate/redis` itself could not be found (not one of its imports). */
function isRedisPackageMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    /['"]@infergate\/redis['"]/.test(message)
  );
}

/**
 * The shared budget of `--redis URL`. `@infergate/redis` is an optional peer of this package
 * (a plain `npx @infergate/mcp` installs no Redis client), loaded only here: when it is not
 * installed, a `configuration_error` names the install line. `importRedis` is for tests.
 */
export async function loadRedisBudget(
  url: string,
  log: (line: string) => void,
  importRedis: () => Promise<RedisModule> = () => import('@infergate/redis'),
): Promise<KeyBudget & { close(): Promise<void> }> {
  // Messages name the Redis they are about by its parsed URL, credentials masked (or by its length).
  const redis = shownRedisUrl(url);
  let createRedisBudget: RedisModule['createRedisBudget'];
  try {
    ({ createRedisBudget } = await importRedis());
  } catch (cause) {
    if (!isRedisPackageMissing(cause)) throw cause;
    throw new GatewayError({
      code: 'configuration_error',
      message: `--redis (${redis}) needs the @infergate/redis package, which is not installed: ${REDIS_INSTALL}`,
      field: 'redisUrl',
      cause,
    });
  }
  try {
    return createRedisBudget({ url, warn: (message) => log(`${message} (Redis at ${redis})`) });
  } catch (cause) {
    throw new GatewayError({
      code: 'configuration_error',
      message: `The Redis URL ${redis} (--redis / INFERGATE_REDIS_URL) cannot be used: ${cause instanceof Error ? cause.message : String(cause)}`,
      field: 'redisUrl',
      cause,
    });
  }
}
