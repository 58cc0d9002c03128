import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_KEYS, startEmulator } from '../src/index';
import { caught } from '../src/testing/index';

// A scenario that removes every key leaves nothing to hand a client. `startEmulator` rejected
// after it had started listening, leaving its server open (the process never exited), and the CLI
// said so without naming the file, followed by the usage.

const packageDir = join(import.meta.dirname, '..');
const bin = join(packageDir, 'bin', 'infergate-emulator.js');
const noKeys = {
  keys: Object.fromEntries(Object.values(DEFAULT_KEYS).map((key) => [key, null])),
};

beforeAll(() => {
  // The bin runs the built CLI; build once when the tests run before any build.
  if (!existsSync(join(packageDir, 'dist', 'cli.js'))) {
    execFileSync('pnpm', ['exec', 'tsup'], { cwd: packageDir, stdio: 'ignore' });
  }
}, 120_000);

/** A port free a moment ago: listened on, then closed. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a scenario without any key', () => {
  it('startEmulator rejects before listening: the port is still free', async () => {
    const port = await freePort();
    const error = await caught(startEmulator({ port, scenario: noKeys }));
    expect(error.message).toBe('The scenario has no API keys');
    // Had the refused server stayed open, this one would fail with EADDRINUSE.
    const server = await startEmulator({ port });
    await server.close();
  });

  it('the CLI exits 2 with one line naming the scenario file, printing nothing to run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-nokeys-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'nokeys.json');
    writeFileSync(file, JSON.stringify(noKeys));
    const child = spawn(process.execPath, [bin, '--port', '0', '--scenario', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    let out = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect([code, out, ...err.trim().split('\n')]).toEqual([
      2,
      '',
      `infergate-emulator: Scenario file '${file}' is not a usable scenario: The scenario has no API keys`,
    ]);
  });
});
