/**
 * The `infergate-mcp` command as a client starts it: over stdio (the SDK's `StdioClientTransport`
 * spawning the bin, as Claude Desktop does) and over HTTP.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  INFERGATE_BASE_URL: harness.gateway.url,
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
