// `--host "$HOST"` with HOST unset (`''`), or `startEmulator({ host: process.env.HOST ?? '' })`,
// used to listen on every interface and print `http://:PORT/v1`: an empty or blank host is refused
// before anything listens, the CLI's with exit 2 and the usage, as an empty `--port` is.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index';

const packageDir = join(import.meta.dirname, '..');
const bin = join(packageDir, 'bin', 'infergate-emulator.js');

beforeAll(() => {
  // The bin runs the built CLI; build once when the tests run before any build.
  if (!existsSync(join(packageDir, 'dist', 'cli.js'))) {
    execFileSync('pnpm', ['exec', 'tsup'], { cwd: packageDir, stdio: 'ignore' });
  }
}, 120_000);

/** Runs the CLI until it exits or prints its base URL (then it is stopped): what it did. */
function runCli(args: string[]): Promise<{ code: number | null; err: string; listened: boolean }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let listened = false;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (chunk.includes('export INFERGATE_BASE_URL=')) {
      listened = true;
      child.kill('SIGTERM');
    }
  });
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve({ code, err, listened }));
  });
}

describe('an empty or blank host is refused', () => {
  it.each([[['--host', '']], [['--host', ' ']], [['--host=']]])(
    'the CLI %j: exit 2 with the usage, nothing listens',
    async (args) => {
      const { code, err, listened } = await runCli(['--port', '0', ...args]);
      expect(listened).toBe(false);
      expect(code).toBe(2);
      expect(err).toMatch(/--host must be an interface name or address, got '\s*'/);
      expect(err).toMatch(/Usage: infergate-emulator/);
    },
  );

  it.each([[''], ['  ']])('startEmulator({ host: %j }) rejects with a TypeError', async (host) => {
    const started = startEmulator({ port: 0, host });
    await expect(started).rejects.toBeInstanceOf(TypeError);
    await expect(started).rejects.toThrow(/startEmulator: host must be an interface name/);
  });

  it('a named host still listens, its URL a valid one', async () => {
    const server = await startEmulator({ port: 0, host: 'localhost' });
    try {
      expect(new URL(server.url).hostname).toBe('localhost');
    } finally {
      await server.close();
    }
  });
});
