import { describe, expect, it } from 'vitest';
import { CliUsageError, cliSecrets, parseCli, USAGE } from './cli-args';

const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const parsed = parseCli(argv, env);
  if (parsed.kind !== 'run') throw new Error(parsed.kind);
  return parsed.options;
};

describe('parseCli', () => {
  it('refuses an unknown flag naming the closest known one, never a value', () => {
    expect(() => parseCli(['--bse-url', 'http://x'], {})).toThrow(
      new CliUsageError('unknown option `--bse-url` in infergate-mcp — did you mean `--base-url`?'),
    );
    expect(() => parseCli(['--api-kye=ig-secret-value'], {})).toThrow(
      'unknown option `--api-kye` in infergate-mcp — did you mean `--api-key`?',
    );
    expect(() => parseCli(['--no-url'], {})).toThrow('did you mean `--no-urls`?');
    // Nothing close: every flag is listed.
    expect(() => parseCli(['--zzzzzzzzzzzz'], {})).toThrow(/; known: --http, --port, /);
  });

  it('serves stdio from the working directory by default', () => {
    expect(run([])).toMatchObject({
      http: false,
      roots: [process.cwd()],
      allowUrls: true,
      allowPrivateUrls: false,
      catalogRefreshMs: 60_000,
      redisUrl: undefined,
      token: undefined,
    });
  });

  it('reads the HTTP options, repeated roots and origins', () => {
    expect(
      run([
        '--http',
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--token',
        'a-long-enough-token',
        '--allowed-origin',
        'http://localhost:5173',
        '--allowed-origin',
        'https://app.example',
        '--no-urls',
        '--allow-private-urls',
        '--catalog-refresh',
        '5',
        '--redis',
        'redis://127.0.0.1:6379',
      ]),
    ).toMatchObject({
      http: true,
      port: 0,
      host: '0.0.0.0',
      token: 'a-long-enough-token',
      allowedOrigins: ['http://localhost:5173', 'https://app.example'],
      allowUrls: false,
      allowPrivateUrls: true,
      catalogRefreshMs: 5000,
      redisUrl: 'redis://127.0.0.1:6379',
    });
  });

  it('reads repeated roots (stdio)', () => {
    expect(run(['--root', '/data/a', '--root', '/data/b'])).toMatchObject({
      http: false,
      roots: ['/data/a', '/data/b'],
    });
  });

  it('takes the token and Redis URL from the environment', () => {
    expect(
      run(['--http'], {
        INFERGATE_MCP_TOKEN: 'from-the-environment',
        INFERGATE_REDIS_URL: 'redis://r:6379',
      }),
    ).toMatchObject({ token: 'from-the-environment', redisUrl: 'redis://r:6379' });
  });

  it('refuses bad command lines with a message naming the argument', () => {
    const cases: [string[], RegExp][] = [
      [['--port', '80'], /--port needs --http/],
      [['--http', '--port', 'abc'], /--port must be a whole number/],
      [['--http', '--port', '70000'], /--port must be a whole number/],
      [['--http', '--token', 'short'], /at least 16 characters/],
      [['--http', '--root', '/data'], /--root cannot go with --http/],
      [['--http', '--allowed-origin', 'localhost:5173'], /--allowed-origin must be an origin/],
      [['--verbose'], /--verbose/],
      // A stray argument by position and length, never quoted: it may be a secret.
      [['stray'], /^Unexpected argument 1 \(5 characters, not shown: it may be a secret\)/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseCli(argv, {}), argv.join(' ')).toThrow(CliUsageError);
      expect(() => parseCli(argv, {}), argv.join(' ')).toThrow(message);
    }
  });

  it('refuses a --redis value that is no redis:// URL by its length, never printing it (it may hold a password)', () => {
    const form =
      'must be a URL redis://HOST:PORT (rediss://HOST:PORT for TLS, USER:PASSWORD@ before HOST for an ACL user)';
    for (const value of [
      'b5f0c1e2d3a4958677889900aabbccdd',
      'redis//:hunter2pw@cache:6379',
      'x:hunter2pw',
    ]) {
      const error = (() => {
        try {
          parseCli([`--redis=${value}`], {});
        } catch (e) {
          return e;
        }
      })();
      expect(error).toEqual(
        new CliUsageError(
          `--redis ${form}, got a value of ${value.length} characters (not shown: it may hold a password)`,
        ),
      );
    }
    expect(() => parseCli([], { INFERGATE_REDIS_URL: 'hunter2pw' })).toThrow(
      new CliUsageError(
        `INFERGATE_REDIS_URL ${form}, got a value of 9 characters (not shown: it may hold a password)`,
      ),
    );
    expect(parseCli(['--redis', 'rediss://u:p@cache:6380'], {})).toMatchObject({
      options: { redisUrl: 'rediss://u:p@cache:6380' },
    });
  });

  it('holds the token to the rule startHttpServer holds its token option to, naming where it came from', () => {
    const padded = ' a-long-enough-token ';
    expect(() => parseCli(['--http', '--token', padded], {})).toThrow(
      new CliUsageError(
        '--token must be a string of at least 16 characters with no space at either end (use a random secret), got a string of 21 characters (spaces at an end)',
      ),
    );
    expect(() => parseCli(['--http'], { INFERGATE_MCP_TOKEN: 'short' })).toThrow(
      /^INFERGATE_MCP_TOKEN must be a string of at least 16 characters .*, got a string of 5 characters$/,
    );
  });

  it('never quotes a too-short token', () => {
    expect(() => parseCli(['--http', '--token', 'secret123'], {})).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('secret123') }),
    );
  });

  it("reads core's timeouts group as flags (off by default), each by core's rule for the option", () => {
    expect(run([])).toMatchObject({ timeouts: {} });
    expect(
      run([
        '--first-chunk-timeout-ms',
        '20000',
        '--chunk-timeout-ms=30000',
        '--timeout-ms',
        '9000',
      ]),
    ).toMatchObject({
      timeouts: { firstChunkTimeoutMs: 20_000, chunkTimeoutMs: 30_000, timeoutMs: 9_000 },
    });
    // What the client option takes, the flag takes: a fraction of a ms, and a value above the
    // longest timer clamped to it (createGatewayClient({ timeoutMs: 3e9 }) is accepted so too).
    expect(
      run([
        '--first-chunk-timeout-ms',
        '1500.5',
        '--timeout-ms',
        '3000000000',
        '--chunk-timeout-ms=1e3',
      ]),
    ).toMatchObject({
      timeouts: { firstChunkTimeoutMs: 1500.5, timeoutMs: 2_147_483_647, chunkTimeoutMs: 1000 },
    });
    for (const [flag, value] of [
      ['--first-chunk-timeout-ms', '0'],
      ['--chunk-timeout-ms', '-5'],
      ['--timeout-ms', '0'],
      ['--timeout-ms', 'Infinity'],
      ['--timeout-ms', 'soon'],
      ['--timeout-ms', '0x10'],
    ] as const) {
      expect(() => parseCli([`${flag}=${value}`], {}), `${flag} ${value}`).toThrow(
        new CliUsageError(
          `${flag} (command-line option) must be a finite number of ms > 0, got "${value}"`,
        ),
      );
    }
  });

  it('says in the help what --host does without --token: the server warns, as the README says', () => {
    // (The start warns, it refuses nothing: test/http-loopback-bind.test.ts.)
    expect(USAGE).not.toContain('needs --token');
    expect(USAGE).toMatch(/--host H .* without --token the server\s+warns that anyone/);
  });

  it("has a flag and a help line for each of core's timeouts (built from its descriptor)", () => {
    for (const flag of ['--timeout-ms N', '--first-chunk-timeout-ms N', '--chunk-timeout-ms N']) {
      expect(USAGE).toContain(flag);
    }
  });

  it('answers --help and --version', () => {
    expect(parseCli(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseCli(['-v'], {})).toEqual({ kind: 'version' });
  });
});

describe('cliSecrets', () => {
  it('finds the key and the token in the variables and the command line, even one it cannot parse', () => {
    expect(
      cliSecrets(['--api-key', 'ig-arg-key', '--token=token-arg', '--port', 'x', '--bogus'], {
        INFERGATE_API_KEY: ' ig-env-key ',
        INFERGATE_MCP_TOKEN: '',
      }),
    ).toEqual(['ig-env-key', 'ig-arg-key', 'token-arg']);
    // A flag left without its value does not make the next option a secret.
    expect(cliSecrets(['--api-key', '--port', '9', '--token'], {})).toEqual([]);
  });
});
