/**
 * `--redis` / INFERGATE_REDIS_URL is held to @infergate/redis's one rule for a Redis URL's form
 * (`redisUrlFault`): the command refuses, before anything starts, exactly what createRedisBudget
 * refuses, in its words with the source named, and never shows any piece of the value: a password
 * pasted where the URL goes (`hunter2:xyz`) parses as a URL whose "scheme" is the secret, and
 * `redis:pw@host` (no `//`) is a URL whose password no redaction masks.
 */
import { redisUrlFault } from '@infergate/redis';
import { beforeAll, describe, expect, it } from 'vitest';
import { CliUsageError, parseCli } from '../src/cli-args';
import { ensureBuilt, runToExit } from './spawn-cli';

beforeAll(() => {
  ensureBuilt();
}, 120_000);

const run = runToExit;

/** Every piece of `secret` 4 characters long or more. */
function pieces(secret: string): string[] {
  return Array.from({ length: Math.max(1, secret.length - 3) }, (_, i) => secret.slice(i, i + 4));
}

const VALUES = [
  'hunter2:xyz',
  's3cr3t:pw@host',
  's3cr3t',
  'redis:hunter2pw@cache',
  'REDIZ://:hunter2pw@cache:6379',
  'rediss://me:hunter2-pass@',
  'not a url',
  'redis://127.0.0.1:6379',
  'REDISS://me:hunter2pw@cache.test:6380/2',
  'redis://127.0.0.1:6379/abc',
  'redis://me:hunter2pw@127.0.0.1:6379/0?password=x',
  'redis://me:hunt%ZZer2pw@127.0.0.1:6379',
  'redis://127.0.0.1:6379/99999999999',
];

describe("the Redis URL's form: @infergate/redis's rule", () => {
  it.each(VALUES)(
    '%s: the command refuses it exactly when redisUrlFault does, in its words',
    (url) => {
      const fault = redisUrlFault(url);
      for (const [argv, env, source] of [
        [['--redis', url], {}, '--redis'],
        [[], { INFERGATE_REDIS_URL: url }, 'INFERGATE_REDIS_URL'],
      ] as const) {
        if (fault === undefined) {
          expect(parseCli(argv, env)).toMatchObject({ options: { redisUrl: url } });
        } else {
          expect(() => parseCli(argv, env)).toThrow(new CliUsageError(`${source} ${fault}`));
        }
      }
    },
  );

  it.each([
    ['hunter2:xyz', 'hunter2:xyz'],
    ['s3cr3t:pw@host', 's3cr3t:pw@host'],
    ['redis:hunter2pw@cache', 'hunter2pw@cache'],
  ])(
    '%s: refused before anything starts (status 2), the source named, no piece shown',
    (url, secret) => {
      for (const [args, env, source] of [
        [['--redis', url], {}, '--redis'],
        [[], { INFERGATE_REDIS_URL: url }, 'INFERGATE_REDIS_URL'],
      ] as const) {
        const { status, stderr } = run([...args], env);
        expect(status).toBe(2);
        expect(stderr).toContain(
          `${source} must be a URL redis://HOST:PORT (rediss://HOST:PORT for TLS, USER:PASSWORD@ before HOST for an ACL user), got a value of ${url.length} characters (not shown: it may hold a password)`,
        );
        expect(stderr).not.toContain('serving');
        for (const piece of pieces(secret)) expect(stderr).not.toContain(piece);
      }
    },
  );
});
