/**
 * The `infergate-mcp` command as a client starts it: over stdio (the SDK's `StdioClientTransport`
 * spawning the bin, as Claude Desktop does) and over HTTP.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';
import { bin, ensureBuilt, spawnHttpCli } from './spawn-cli';

let harness: Harness;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  harness = await startHarness();
}, 120_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await harness.close();
});

const gatewayEnv = () => ({
  PATH: process.env.PATH ?? '',
  INFERGATE_BASE_URL: harness.gateway.baseURL,
  INFERGATE_API_KEY: harness.gateway.apiKey,
});

describe('infergate-mcp', () => {
  it('serves stdio to the SDK client, reading files under --root', async () => {
    await writeFile(join(harness.root, 'memo.wav'), wavWithSpeech('call me back'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, '--root', harness.root, '--catalog-refresh', '0'],
      env: gatewayEnv(),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'desktop', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('infergate');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('transcribe');
      const result = await client.callTool({
        name: 'transcribe',
        arguments: { audio_path: 'memo.wav' },
      });
      expect(textOf(result)).toBe('call me back');
      const outside = await client.callTool({
        name: 'transcribe',
        arguments: { audio_path: '/etc/hostname' },
      });
      expect(textOf(outside)).toContain('outside the allowed roots');
    } finally {
      await client.close();
    }
    expect(stderr).toContain('infergate-mcp: serving over stdio');
    expect(stderr).not.toContain(harness.gateway.apiKey);
  });

  it('serves Streamable HTTP with --http --port 0 --token', async () => {
    const token = 'cli-test-token-abcdefgh';
    const { url, child } = await spawnHttpCli(
      ['--token', token, '--catalog-refresh', '0'],
      gatewayEnv(),
    );
    children.push(child);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'remote', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const result = await client.callTool({
      name: 'translate',
      arguments: { text: 'bonjour', target_language: 'de' },
    });
    expect(textOf(result)).toBe('[de] bonjour');
    await client.close();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('names an unreachable Redis by its URL without the password', async () => {
    // Port 1: nothing listens there (a probed free port could be given to a test beside this one).
    const redis = 'redis://:hunter2-pass@127.0.0.1:1';
    const { url, child, stderr } = await spawnHttpCli(
      ['--redis', redis, '--catalog-refresh', '0'],
      gatewayEnv(),
    );
    children.push(child);
    const client = new Client({ name: 'no-redis', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({
      name: 'translate',
      arguments: { text: 'still served', target_language: 'de' },
    });
    expect(textOf(result)).toBe('[de] still served');
    await client.close();
    await vi.waitFor(() => expect(stderr()).toContain('Redis cannot be reached'), {
      timeout: 30_000,
    });
    expect(stderr()).toContain('(Redis at redis://***@127.0.0.1:1)');
    expect(stderr()).not.toContain('hunter2-pass');
  });

  it('prints startup errors without a Redis password, URL credentials or the key', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [bin, ...args], { env: gatewayEnv(), encoding: 'utf8' });
    const redis = run('--http', '--redis', 'redis://:hunter2-pass@127.0.0.1:6379/not-a-db');
    // A path that is no database number: refused before anything starts, nothing of it shown.
    expect(redis.status).toBe(2);
    expect(redis.stderr).toContain('--redis must be a URL redis://HOST:PORT');
    expect(redis.stderr).toContain('got one whose path is not a database index');
    expect(redis.stderr).not.toContain('not-a-db');
    const origin = run('--http', '--allowed-origin', 'http://user:origin-pass@evil.example/');
    expect(origin.status).toBe(2);
    expect(origin.stderr).toContain('got "http://***@evil.example/"');
    // The shell's `--api-key= "$INFERGATE_API_KEY"`: the key is a stray argument.
    const stray = run('--api-key=', harness.gateway.apiKey);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toContain('Unexpected argument 2 (');
    const printed = [redis, origin, stray].map((outcome) => outcome.stderr).join('\n');
    for (const secret of ['hunter2-pass', 'origin-pass', harness.gateway.apiKey]) {
      expect(printed).not.toContain(secret);
    }
  });

  it('refuses a token startHttpServer would refuse as a usage error naming --token (status 2)', () => {
    const padded = spawnSync(
      process.execPath,
      [bin, '--http', '--token', ' padded-token-abcdefgh '],
      {
        env: gatewayEnv(),
        encoding: 'utf8',
      },
    );
    expect(padded.status).toBe(2);
    expect(padded.stderr).toContain(
      'infergate-mcp: --token must be a string of at least 16 characters with no space at either end',
    );
    expect(padded.stderr).not.toContain('padded-token-abcdefgh');
  });

  it('refuses a --root that is no directory (status 1), and --root with --http (status 2)', async () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [bin, ...args], { env: gatewayEnv(), encoding: 'utf8' });
    const missingDir = join(harness.root, 'Documets');
    const missing = run('--root', harness.root, '--root', missingDir);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(
      `infergate-mcp: --root "${missingDir}" does not exist: give a directory the tools may read files from`,
    );
    const file = join(harness.root, 'a-file.txt');
    await writeFile(file, 'not a directory');
    const notDir = run('--root', file);
    expect(notDir.status).toBe(1);
    expect(notDir.stderr).toContain(`--root "${file}" is not a directory`);
    const overHttp = run('--http', '--port', '0', '--root', harness.root);
    expect(overHttp.status).toBe(2);
    expect(overHttp.stderr).toContain('--root cannot go with --http');
  });

  it('names the gateway settings as its options: --base-url, --api-key', async () => {
    const malformed = spawnSync(process.execPath, [bin, '--http', '--base-url', 'gw.example'], {
      env: { PATH: process.env.PATH ?? '', INFERGATE_API_KEY: harness.gateway.apiKey },
      encoding: 'utf8',
    });
    expect(malformed.status).toBe(1);
    expect(malformed.stderr).toContain('--base-url is not an absolute URL');
    // No key anywhere: a tool's answer says to pass --api-key (not createGatewayClient's apiKey).
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, '--base-url', harness.gateway.baseURL],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'list_models', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(
        'No API key: pass `--api-key` to infergate-mcp or set the INFERGATE_API_KEY environment variable',
      );
    } finally {
      await client.close();
    }
  });

  it('checks INFERGATE_BASE_URL and a blank --api-key at start as it checks --base-url', () => {
    const start = (args: string[], env: Record<string, string>) =>
      spawnSync(process.execPath, [bin, ...args], {
        env: { PATH: process.env.PATH ?? '', ...env },
        input: '',
        encoding: 'utf8',
      });
    const key = { INFERGATE_API_KEY: harness.gateway.apiKey };
    const malformed = start([], { ...key, INFERGATE_BASE_URL: 'gw.example/v1' });
    expect(malformed.status).toBe(1);
    expect(malformed.stderr).toContain(
      'infergate-mcp: INFERGATE_BASE_URL (environment variable) is not an absolute URL',
    );
    const blankKey = start(['--api-key='], { INFERGATE_BASE_URL: harness.gateway.baseURL, ...key });
    expect(blankKey.status).toBe(1);
    expect(blankKey.stderr).toContain('infergate-mcp: --api-key is empty');
    // Blank is unset, as core reads it: the warning says every tool will fail.
    const blank = start([], { ...key, INFERGATE_BASE_URL: '   ' });
    expect(blank.status).toBe(0);
    expect(blank.stderr).toContain(
      'warning: no gateway URL (INFERGATE_BASE_URL or --base-url): every tool will fail',
    );
  });

  it('prints --help and --version on stdout (a pipe or `$(infergate-mcp --version)` gets them)', () => {
    const run = (flag: string) =>
      spawnSync(process.execPath, [bin, flag], { env: gatewayEnv(), encoding: 'utf8' });
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('infergate-mcp');
    expect(help.stdout).toContain('--base-url');
    expect(help.stderr).toBe('');
    const version = run('--version');
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    expect(version.stderr).toBe('');
  });

  it('exits 2 with the usage hint on a bad command line', () => {
    let status = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, [bin, '--port', '9'], { env: gatewayEnv(), stdio: 'pipe' });
    } catch (error) {
      ({ status } = error as { status: number });
      stderr = String((error as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(2);
    expect(stderr).toContain('--port needs --http');
    expect(stderr).toContain('infergate-mcp --help');
  });
});

describe('infergate-mcp stopped while it starts', () => {
  it('SIGTERM during the first catalog read: closes once started and exits 0', async () => {
    const { emulator } = harness.gateway;
    const catalogReads = () =>
      (emulator.counters.requests.capabilities ?? 0) + (emulator.counters.requests.models ?? 0);
    // The in-process server's own reads ended first: a read counted next is the child's.
    await harness.mcp.refreshCatalog();
    await harness.gateway.untilIdle();
    const readsBefore = catalogReads();
    const releases = [emulator.holdAnswers('capabilities'), emulator.holdAnswers('models')];
    const child = spawn(process.execPath, [bin, '--catalog-refresh', '0'], {
      env: gatewayEnv(),
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    const told = new Promise<void>((resolve) => {
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (stderr.includes('stopping once started')) resolve();
      });
    });
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (code, signal) => resolve([code, signal])),
    );
    // The first catalog read is on its way, held by the emulator: the server is starting.
    await harness.gateway.until(() => catalogReads() > readsBefore);
    child.kill('SIGTERM');
    // Killed by the signal (before), or told it stops once started: either ends the wait.
    await Promise.race([told, exited]);
    for (const release of releases) release();
    expect(await exited).toEqual([0, null]);
  });
});
