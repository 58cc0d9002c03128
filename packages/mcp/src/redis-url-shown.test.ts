import { describe, expect, it } from 'vitest';
import { cliSecrets } from './cli-args';
import { redactMessage } from './redact-message';
import { shownRedisUrl } from './redis-url-shown';

/** Every piece of `secret` 4 characters long. */
function pieces(secret: string): string[] {
  return Array.from({ length: Math.max(1, secret.length - 3) }, (_, i) => secret.slice(i, i + 4));
}

describe('shownRedisUrl: the Redis as messages name it', () => {
  it.each([
    ['redis://user:pa"ss-S3cret@127.0.0.1:6399', 'redis://***@127.0.0.1:6399'],
    ['redis://user:pa ss`<S3cret@cache:6379', 'redis://***@cache:6379'],
    ['REDISS://me:hunter2pw@cache.test:6380/2', 'rediss://***@cache.test:6380/2'],
    ['redis://token@[::1]:6379', 'redis://***@[::1]:6379'],
    ['redis://:hunter2@cache:6379/', 'redis://***@cache:6379'],
    ['redis://cache:6379', 'redis://cache:6379'],
    ['redis://cache:6379/S3cretPW', 'redis://cache:6379/…'],
    ['redis://cache:6379/?password=S3cretPW', 'redis://cache:6379/?…'],
    ['redis://cache:6379/3?password=S3cretPW#x', 'redis://cache:6379/3?…'],
  ])('%s → %s', (url, shown) => {
    expect(shownRedisUrl(url)).toBe(shown);
  });

  it.each([
    // A password with an unencoded / ? or #: the user name parses as the host.
    'redis://default:9/S3cretPW@127.0.0.1:6399',
    'redis://pa/S3cretPW@127.0.0.1:6399',
    'redis://user:12?S3cretPW@cache:6379',
    'redis://user:12#S3cretPW@cache:6379',
    // No Redis URL: not even its "scheme" is shown.
    'redis//:S3cretPW@cache:6379',
    'S3cretPW:xyz',
    'redis:S3cretPW@cache',
  ])('%s: named by its length alone', (url) => {
    expect(shownRedisUrl(url)).toBe(
      `[a value of ${url.length} characters, not shown: it may hold a password]`,
    );
  });
});

describe("cliSecrets: the --redis URL's credentials are hidden in every printed line", () => {
  it.each([
    ['redis://user:pa"ss-S3cretPW@127.0.0.1:6399', 'pa"ss-S3cretPW'],
    ['redis://user:pa%2Fss-S3cretPW@127.0.0.1:6399', 'pa/ss-S3cretPW'],
    ['redis://default:9/S3cretPW@127.0.0.1:6399', '9/S3cretPW'],
    ['redis://S3cretPW-token@cache:6379', 'S3cretPW-token'],
  ])('%s', (url, password) => {
    const line = (secrets: string[]) =>
      redactMessage(
        `AUTH failed: "${password}" (${encodeURIComponent(password)}) in ${url}`,
        secrets,
      );
    for (const secrets of [
      cliSecrets(['--redis', url], {}),
      cliSecrets([`--redis=${url}`], {}),
      cliSecrets([], { INFERGATE_REDIS_URL: url }),
    ]) {
      const shown = line(secrets);
      for (const piece of pieces(password)) expect(shown).not.toContain(piece);
    }
  });

  it('a URL without credentials is no secret: it stays as it is', () => {
    expect(cliSecrets(['--redis', 'redis://cache:6379/2'], {})).toEqual([]);
  });
});
