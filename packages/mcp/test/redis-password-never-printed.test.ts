/**
 * `--redis URL`: no piece of the URL's password is ever printed, whatever it holds. A password
 * with a character a URL takes as it is (`"`, `'`, a space, `<`, a backtick) is masked in the
 * fallback warning (`… (Redis at redis://***@127.0.0.1:1)`), and one with an unencoded `/` (the URL
 * then parses with the user name as its host and the password in its path) is named by its length
 * in the startup error. Run on the built command (stdio, as a desktop client starts it) and
 * in-process through `loadRedisBudget`, with a Redis nobody answers at (127.0.0.1:1).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRedisBudget } from '../src/redis-budget';
import { type Harness, startHarness } from './harness';
import { bin, ensureBuilt, runToExit } from './spawn-cli';

let harness: Harness;
beforeAll(async () => {
  ensureBuilt();
  harness = await startHarness();
}, 120_000);
afterAll(() => harness?.close());

/** Every piece of `secret` 4 characters long. */
function pieces(secret: string): string[] {
  return Array.from({ length: Math.max(1, secret.length - 3) }, (_, i) => secret.slice(i, i + 4));
}

function expectNoPieceOf(secret: string, text: string): void {
  for (const piece of pieces(secret)) expect(text).not.toContain(piece);
}

/** Passwords a URL takes unencoded that the masking of URL-like text stopped at. */
const PASSWORDS = [
  'pa"ss-S3cretPW',
  "pa'ss-S3cretPW",
  'pa ss-S3cretPW',
  'pa<ss-S3cretPW',
  'pa`ss-S3cretPW',
];

/** The line of `text` that names the Redis, once it is there. */
function redisLine(text: string): string | undefined {
  return text.split('\n').find((line) => line.includes('(Redis at '));
}

describe('the --redis password is never printed', () => {
  it.each(PASSWORDS)(
    'built command over stdio, password %s: the fallback warning masks it, nothing shows a piece',
    async (password) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [bin, '--catalog-refresh', '0', '--redis', `redis://user:${password}@127.0.0.1:1`],
        env: {
          PATH: process.env.PATH ?? '',
          INFERGATE_BASE_URL: harness.gateway.baseURL,
          INFERGATE_API_KEY: harness.gateway.apiKey,
        },
        stderr: 'pipe',
      });
      let stderr = '';
      const warned = new Promise<string>((resolve) => {
        transport.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          const line = redisLine(stderr);
          if (line !== undefined) resolve(line);
        });
      });
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const result = await client.callTool({
          name: 'translate',
          arguments: { text: 'hi', target_language: 'de' },
        });
        const warning = await warned;
        expect(warning).toContain('using an in-process budget');
        expect(warning).toContain('(Redis at redis://***@127.0.0.1:1)');
        expectNoPieceOf(password, `${stderr}\n${JSON.stringify(result)}`);
      } finally {
        await client.close();
      }
    },
    30_000,
  );

  it.each([
    ['redis://default:9/S3cretPW@127.0.0.1:1', '9/S3cretPW'],
    ['redis://pa/S3cretPW@127.0.0.1:1', 'pa/S3cretPW'],
  ])(
    'built command, %s (a password with an unencoded /): refused before anything starts (exit 2, its path no database index), no piece shown',
    (url, password) => {
      for (const [args, env, source] of [
        [['--redis', url], {}, '--redis'],
        [[`--redis=${url}`], {}, '--redis'],
        [[], { INFERGATE_REDIS_URL: url }, 'INFERGATE_REDIS_URL'],
      ] as const) {
        const outcome = runToExit(args, env);
        expect(outcome.status).toBe(2);
        expect(outcome.stderr).toContain(`${source} must be a URL redis://HOST:PORT`);
        expect(outcome.stderr).toContain(
          'got one whose path is not a database index (only /0 to /2147483647 may follow HOST:PORT, or nothing for database 0) (not shown: it may hold a password)',
        );
        expectNoPieceOf(password, `${outcome.stderr}\n${outcome.stdout}`);
      }
    },
    60_000,
  );

  it.each(PASSWORDS)(
    'in-process, password %s: the fallback warning loadRedisBudget logs masks it',
    async (password) => {
      let warned: (line: string) => void = () => {};
      const warning = new Promise<string>((resolve) => {
        warned = resolve;
      });
      const lines: string[] = [];
      const budget = await loadRedisBudget(`redis://user:${password}@127.0.0.1:1`, (line) => {
        lines.push(line);
        warned(line);
      });
      try {
        const lease = await budget.acquire({
          id: 'key',
          limit: 4,
          signal: new AbortController().signal,
          deadline: Date.now() + 60_000,
        });
        lease.release();
        expect(await warning).toMatch(
          /using an in-process budget.*\(Redis at redis:\/\/\*\*\*@127\.0\.0\.1:1\)$/,
        );
        expectNoPieceOf(password, lines.join('\n'));
      } finally {
        await budget.close();
      }
    },
  );
});
