import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll } from 'vitest';

const packageDir = join(import.meta.dirname, '..');

/** The CLI's bin, as a user runs it: it runs the built CLI (`dist/cli.js`). */
export const bin = join(packageDir, 'bin', 'infergate-emulator.js');

/** Call at a test file's top level: the CLI is built once before its tests when no build is there yet. */
export function builtCli(): void {
  beforeAll(() => {
    if (!existsSync(join(packageDir, 'dist', 'cli.js'))) {
      execFileSync('pnpm', ['exec', 'tsup'], { cwd: packageDir, stdio: 'ignore' });
    }
  }, 120_000);
}

/** Runs the CLI until it exits or prints its base URL (then it is stopped): what it did. */
export function runCli(
  args: string[],
): Promise<{ code: number | null; err: string; listened: boolean }> {
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
