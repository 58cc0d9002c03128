/**
 * One message over the stdio limit (40 MiB) fails its own call as a tool result; the session
 * goes on (the MCP SDK's read buffer would close it). Through the built `infergate-mcp`.
 */
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveStdio } from '../src/index';
import { type Harness, startHarness, textOf } from './harness';
import { ensureBuilt, stdioClientTransport } from './spawn-cli';

let harness: Harness;
let client: Client;
beforeAll(async () => {
  ensureBuilt();
  harness = await startHarness();
  client = new Client({ name: 'stdio-oversized', version: '1.0.0' });
  await client.connect(stdioClientTransport(harness.root, harness.gateway));
}, 120_000);
afterAll(async () => {
  await client.close();
  await harness.close();
});

it('a message over 40 MiB is a failed call, and the session goes on', async () => {
  // 31 MiB as base64: over the message limit (and the schema's), a file to give by path.
  const image = Buffer.alloc(31 * 1024 * 1024).toString('base64');
  const oversized = await client.callTool({ name: 'ocr', arguments: { image_base64: image } });
  expect(oversized.isError).toBe(true);
  expect(textOf(oversized)).toMatch(/the message is \d+ bytes; .* at most 41943040 bytes/);
  expect(textOf(oversized)).toContain('image_path / audio_path');
  const after = await client.callTool({
    name: 'translate',
    arguments: { text: 'Good morning', target_language: 'de' },
  });
  expect(textOf(after)).toBe('[de] Good morning');
  expect(harness.gateway.emulator.counters.requests.ocr ?? 0).toBe(0);
}, 60_000);

it('closing the session lets go of stdin (read through our own framing)', async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stdio = await serveStdio(harness.mcp, { stdin, stdout });
  expect(stdin.listenerCount('data')).toBe(1);
  await stdio.close();
  await stdio.closed;
  expect([stdin.listenerCount('data'), stdin.isPaused()]).toEqual([0, true]);
});
