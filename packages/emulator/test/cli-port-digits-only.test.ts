import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

// `--port "$PORT"` with PORT unset used to start on a random port (Number('') is 0), and '0x1f90'
// or '1e3' on ports the user never wrote. Only decimal digits are a port.

const packageDir = join(import.meta.dirname, '..');
const bin = join(packageDir, 'bin', 'infergate-emulator.js');

beforeAll(() => {
  // The bin runs the built CLI; build once when the tests run before any build.
  if (!existsSync(join(packageDir, 'dist', 'cli.js'))) {
    execFileSync('pnpm', ['exec', 'tsup'], { cwd: packageDir, stdio: 'ignore' });
  }
}, 120_000);

/**
 * Runs the CLI until it exits or prints its base URL (then it is stopped): what it did.
 */
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

describe('the CLI --port', () => {
  it.each([[''], [' '], ['0x1f90'], ['1e3'], ['+80'], ['80.0'], ['123456'], ['65536']])(
    'refuses %j: exit 2 with the usage, nothing listens',
    async (value) => {
      const { code, err, listened } = await runCli(['--port', value]);
      expect(listened).toBe(false);
      expect(code).toBe(2);
      expect(err).toContain(`--port must be an integer from 0 to 65535, got '${value}'`);
      expect(err).toMatch(/Usage: infergate-emulator/);
    },
  );
});
