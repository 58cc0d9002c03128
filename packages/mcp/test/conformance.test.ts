/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance`, pinned) in server mode against
 * `infergate-mcp --http` on the emulator: every server scenario runs; those that need the suite's
 * own fixture tools, resources or prompts are listed, each with its reason, in
 * `conformance-baseline.yml`. The suite exits non-zero on an unexpected failure and on a listed
 * scenario that passes (a stale entry).
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type RunningEmulator, startEmulator } from '@infergate/emulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, spawnHttpCli } from './spawn-cli';

const packageDir = join(import.meta.dirname, '..');
const suitePackage = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/conformance/package.json',
);
const suiteBin = join(dirname(suitePackage), 'dist', 'index.js');

let gateway: RunningEmulator;
let server: { url: string; child: ChildProcess };

beforeAll(async () => {
  ensureBuilt();
  gateway = await startEmulator();
  server = await spawnHttpCli(['--catalog-refresh', '0'], {
    PATH: process.env.PATH ?? '',
    INFERGATE_BASE_URL: gateway.url,
    INFERGATE_API_KEY: gateway.apiKey,
  });
}, 120_000);
afterAll(async () => {
  server?.child.kill('SIGTERM');
  await gateway?.close();
});

function runSuite(url: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [suiteBin, 'server', '--url', url, '--expected-failures', 'conformance-baseline.yml'],
      // Killed well after a loaded machine's run (about 10 s alone), before the test's own limit.
      { cwd: packageDir, maxBuffer: 16 * 1024 * 1024, timeout: 200_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

it('passes the MCP conformance suite, but for the fixture-only scenarios of the baseline', async () => {
  const { code, output } = await runSuite(server.url);
  const summary = output.slice(output.indexOf('=== SUMMARY ==='));
  expect(code, summary).toBe(0);
  for (const scenario of [
    'server-initialize',
    'logging-set-level',
    'ping',
    'tools-list',
    'server-sse-multiple-streams',
    'resources-list',
    'dns-rebinding-protection',
  ]) {
    expect(summary).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
  }
  expect(summary).toContain('Baseline check passed');
}, 240_000);
