/**
 * A URL whose path selects a database this Redis does not have (`/16` on the default 16
 * databases): the SELECT at connect is refused by Redis at every attempt, so waiting for Redis
 * changes nothing. The budget refuses itself with a configuration_error naming the URL's path
 * (never quoting the URL), whatever `onRedisFailure` says, instead of counting per process as if
 * Redis were down.
 */
import { isGatewayError } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { redisForFile, request } from './budgets';

const warnings: string[] = [];
const file = redisForFile({ warn: (message: string) => warnings.push(message) });
const budget = file.budget;

describe('a url selecting a database Redis lacks', () => {
  it.each([
    ['/16', 'fallback'],
    ['/16', 'error'],
    ['/2147483647', 'fallback'],
  ] as const)(
    '%s (onRedisFailure %s): ready() and a call fail with a configuration_error, no fallback',
    async (path, onRedisFailure) => {
      warnings.length = 0;
      const b = budget({ url: `${file.redis.url}${path}`, onRedisFailure });
      try {
        // (A lease granted instead, by the fallback, is given back: the budget then closes.)
        const call = b.acquire(request(`ig-db-${Math.random()}`)).then((lease) => {
          lease.release();
          return lease;
        });
        for (const attempt of [b.ready(), call]) {
          const error = await attempt.then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(isGatewayError(error) && error.code).toBe('configuration_error');
          if (!isGatewayError(error)) continue;
          expect(error.isRetryable).toBe(false);
          expect(error.message).toMatch(
            /Redis has no database of the index `url` selects \(its path \/N/,
          );
          expect(error.message).toContain('DB index is out of range');
          expect(error.message).not.toContain(file.redis.url);
        }
        expect(b.stats.fallbackAcquires).toBe(0);
        expect(warnings).toEqual([]);
      } finally {
        await b.close();
      }
    },
  );

  it('a database it has (/3) is used as before', async () => {
    const b = budget({ url: `${file.redis.url}/3` });
    try {
      await b.ready();
      const lease = await b.acquire(request(`ig-db3-${Math.random()}`));
      expect(b.stats.fallbackAcquires).toBe(0);
      lease.release();
    } finally {
      await b.close();
    }
  });
});
