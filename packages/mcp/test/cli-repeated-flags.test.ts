/**
 * `infergate-mcp` given a one-value flag twice refuses to start, naming the flag (never its values:
 * `--api-key` is a secret), instead of keeping the last one without a word. Repeatable flags and
 * a repeated switch still pass. The command run in-process (`runCli`), as the bin runs it.
 */
import { describe, expect, it } from 'vitest';
import { parseCli } from '../src/cli-args';
import { CliUsageError, runCli } from '../src/cli-main';

const run = (argv: string[]) => runCli(argv, {}, { log: () => {}, print: () => {} });

describe('a one-value flag given twice', () => {
  it.each([
    [['--http', '--port', '0', '--port', '1'], '--port'],
    [['--http', '--host', '127.0.0.1', '--host=0.0.0.0'], '--host'],
    [['--timeout-ms', '1000', '--timeout-ms', '5'], '--timeout-ms'],
    [['--catalog-refresh', '0', '--catalog-refresh', '60'], '--catalog-refresh'],
    [['--base-url', 'http://a.example/v1', '--base-url', 'http://b.example/v1'], '--base-url'],
  ])('%j is refused naming %s', async (argv, flag) => {
    const refusal = await run(argv).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CliUsageError);
    expect((refusal as Error).message).toBe(`${flag} is given twice: give it once`);
  });

  it('names --api-key, never the keys', async () => {
    const refusal = await run(['--api-key', 'ig_first_secret_1', '--api-key', 'ig_second_secret_2'])
      .then(() => undefined)
      .catch((error: unknown) => error as Error);
    expect(refusal?.message).toBe('--api-key is given twice: give it once');
    expect(refusal?.message).not.toMatch(/secret/);
  });

  it('lets repeatable flags and a repeated switch pass', () => {
    const parsed = parseCli(
      [
        ...['--http', '--http', '--no-urls', '--no-urls'],
        ...['--allowed-origin', 'http://a.test', '--allowed-origin', 'http://b.test'],
        ...['--allowed-host', 'a.test', '--allowed-host', 'b.test'],
      ],
      {},
    );
    expect(parsed).toMatchObject({
      kind: 'run',
      options: {
        http: true,
        allowUrls: false,
        allowedOrigins: ['http://a.test', 'http://b.test'],
        allowedHosts: ['a.test', 'b.test'],
      },
    });
  });
});
