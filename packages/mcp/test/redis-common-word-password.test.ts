/**
 * `--redis URL` whose password or lone user name is an ordinary word (a dev Redis's `redis`, the
 * ACL user `default`, `infergate`): it is hidden where the URL is written, and no other word of the
 * command's lines is blanked (`@infergate/redis` stays, not `@infergate/[redacted]`; `infergate-mcp`
 * stays, not `[redacted]-mcp`; a root directory named `default-redis-infergate-…` stays). Run on
 * the built command with a Redis nobody answers at (127.0.0.1:1), whose fallback warning names the
 * package and the Redis.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSecrets } from '../src/cli-args';
import { redactMessage } from '../src/redact-message';
import { bin, ensureBuilt } from './spawn-cli';

/** A root directory whose name holds the words, so the line naming it holds them too. */
let root: string;
beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'default-redis-infergate-'));
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** URLs with a common word for a password or user name, and their credentials as written. */
const URLS = [
  ['redis://default:redis@127.0.0.1:1', 'default:redis'],
  ['redis://:infergate@127.0.0.1:1', ':infergate'],
  ['redis://default@127.0.0.1:1', 'default'],
  ['redis://user:default@127.0.0.1:1', 'user:default'],
] as const;

describe('a --redis password that is a common word blanks no other word', () => {
  it.each(URLS)(
    'built command, --redis %s: the URL is named redis://***@…, the other words stay',
    (url, credentials) => {
      for (const [args, env] of [
        [['--redis', url], {}],
        [[], { INFERGATE_REDIS_URL: url }],
      ] as const) {
        const outcome = spawnSync(
          process.execPath,
          [bin, '--catalog-refresh', '0', '--root', root, ...args],
          {
            env: {
              PATH: process.env.PATH ?? '',
              INFERGATE_BASE_URL: 'http://127.0.0.1:9/v1',
              INFERGATE_API_KEY: 'sk-test-abcdefgh12345',
              ...env,
            },
            input: '',
            encoding: 'utf8',
          },
        );
        const printed = `${outcome.stderr}\n${outcome.stdout}`;
        expect(outcome.stderr).toContain(
          '@infergate/redis: Redis cannot be reached (connection refused); using an in-process budget',
        );
        expect(outcome.stderr).toContain('(Redis at redis://***@127.0.0.1:1)');
        expect(outcome.stderr).toContain(`infergate-mcp: serving over stdio (files under ${root})`);
        expect(printed).not.toContain('[redacted]');
        expect(printed).not.toContain(`${credentials}@`);
      }
    },
    60_000,
  );

  it.each(URLS)(
    '%s: where a message writes the URL, its credentials are hidden; the words around it stay',
    (url, credentials) => {
      const secrets = cliSecrets(['--redis', url], {});
      const host = '127.0.0.1:1';
      expect(
        redactMessage(
          `@infergate/redis: default user refused at ${url} (infergate-mcp, redis)`,
          secrets,
        ),
      ).toBe(
        `@infergate/redis: default user refused at redis://***@${host} (infergate-mcp, redis)`,
      );
      // Without its scheme, as a client library may write it: still hidden.
      const shown = redactMessage(`AUTH failed (//${credentials}@${host}, redis)`, secrets);
      expect(shown).not.toContain(`${credentials}@`);
      expect(shown).toContain(`@${host}, redis)`);
    },
  );
});
