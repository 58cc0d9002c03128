import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const packageDir = join(import.meta.dirname, '..');
const bin = join(packageDir, 'bin', 'infergate-emulator.js');

/** The README's block that starts the CLI in the background, `npx` replaced by the bin. */
function backgroundBlock(): string {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const start = readme.indexOf('In a script, start it in the background');
  const code = /```sh\n([\s\S]*?)```/.exec(readme.slice(start))?.[1];
  if (code === undefined) throw new Error('README: the background block is gone');
  return code.replace('npx infergate-emulator', `"${process.execPath}" "${bin}"`);
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Runs `script` with bash in a fresh folder: its exit code and output, once it ends. */
function runBash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'emulator-readme-'));
  cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
  const child = spawn('bash', ['-c', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  // A script still waiting when the test ends (it timed out) is ended with it.
  cleanups.push(() => child.exitCode === null && child.signalCode === null && child.kill());
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

async function takenPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the README block that starts the emulator in the background', () => {
  it('starts it and reaches it with the settings from its log', async () => {
    const { code, stdout } = await runBash(`${backgroundBlock()}\nkill "$emulator"\n`);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ object: 'list' });
  });

  // It used to wait for the log line forever when the server could not start.
  it('gives up with the log when the server exits instead (its port taken)', async () => {
    const port = await takenPort();
    const script = backgroundBlock().replace('--port 0', `--port ${port}`);
    const { code, stderr } = await runBash(script);
    expect(code).toBe(1);
    expect(stderr).toContain('infergate-emulator did not start:');
    expect(stderr).toContain(String(port));
  });
});
