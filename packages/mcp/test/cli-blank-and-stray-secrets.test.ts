/**
 * The built `infergate-mcp`, spawned (each run waited on to its exit): a blank variable counts as
 * unset (INFERGATE_REDIS_URL of a space or a line break starts the server without Redis), except
 * INFERGATE_MCP_TOKEN with `--http`, refused saying why; the Redis URL's usage hint survives the
 * log's redaction of URL credentials; and a stray argument is never printed — after `--token= T`
 * or `--api-key= K` it is the secret itself — only its position and length, with the likely slip.
 */
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, runToExit } from './spawn-cli';

const SECRET = 'b5f0c1e2d3a4958677889900aabbccdd';

beforeAll(() => {
  ensureBuilt();
}, 120_000);

const run = runToExit;

/**
 * `--http` run until it exits or says it listens (then stopped: a blank token taken as unset would
 * serve, not exit); its status, null when it listened.
 */
function runHttp(env: NodeJS.ProcessEnv): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, '--http', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let listened = false;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (!listened && stderr.includes('listening on')) {
      listened = true;
      child.kill();
    }
  });
  return new Promise((resolve) => {
    child.on('close', (status) => resolve({ status: listened ? null : status, stderr }));
  });
}

describe('a blank variable', () => {
  it.each([' ', '\n', ' \t\n'])('INFERGATE_REDIS_URL=%j counts as unset', (blank) => {
    const { status, stderr } = run([], { INFERGATE_REDIS_URL: blank });
    expect(stderr).toContain('serving over stdio');
    expect(stderr).not.toContain('Redis');
    expect(status).toBe(0);
  });

  it.each(['', ' ', '\n'])(
    'INFERGATE_MCP_TOKEN=%j is refused with --http, saying why',
    async (blank) => {
      const { status, stderr } = await runHttp({ INFERGATE_MCP_TOKEN: blank });
      expect(stderr).toContain(
        'INFERGATE_MCP_TOKEN is set but blank: with --http it is refused, not taken as unset as other blank variables are, since the server would then start without the token it was meant to require',
      );
      expect(status).toBe(2);
    },
  );

  it('INFERGATE_MCP_TOKEN blank counts as unset without --http (no token is used there)', () => {
    const { status, stderr } = run([], { INFERGATE_MCP_TOKEN: ' ' });
    expect(stderr).toContain('serving over stdio');
    expect(status).toBe(0);
  });
});

describe("the Redis URL's usage hint", () => {
  it('names the form and the length of a value that is no redis:// URL, never the value (it may hold a password)', () => {
    const form =
      '--redis must be a URL redis://HOST:PORT (rediss://HOST:PORT for TLS, USER:PASSWORD@ before HOST for an ACL user)';
    const malformed = run(['--redis', 'not a url']);
    expect(malformed.stderr).toContain(`${form}, got a value of 9 characters (not shown`);
    expect(malformed.status).toBe(2);
    const password = 'b5f0c1e2d3a4958677889900aabbccdd';
    const bare = run([`--redis=${password}`]);
    expect(bare.stderr).toContain(`${form}, got a value of 32 characters (not shown`);
    expect(bare.stderr).not.toContain(password);
    const withPassword = run(['--redis', 'rediss://me:hunter2-pass@']);
    expect(withPassword.stderr).toContain(`${form}, got a value of 25 characters (not shown`);
    expect(withPassword.stderr).not.toContain('hunter2-pass');
    expect(withPassword.status).toBe(2);
  });
});

describe('a stray argument', () => {
  it.each([
    [['--http', '--token=', SECRET], 3, ' `--token=` has no value: did you put a space after `=`?'],
    [['--api-key=', SECRET], 2, ' `--api-key=` has no value: did you put a space after `=`?'],
    [['--http', '--token', SECRET, SECRET], 4, ''],
  ])('%j is refused by position and length, never printed', (args, position, hint) => {
    const { status, stderr } = run(args);
    expect(stderr).toContain(
      `Unexpected argument ${position} (32 characters, not shown: it may be a secret): this command takes no positional arguments.${hint}\n`,
    );
    expect(stderr).not.toContain(SECRET);
    expect(status).toBe(2);
  });
});
