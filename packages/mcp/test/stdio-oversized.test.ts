/**
 * One message over the stdio limit (40 MiB) fails its own call as a tool result; the session
 * goes on (the MCP SDK's read buffer would close it). Through the built `infergate-mcp`.
 */
import { createInterface } from 'node:readline';
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
  expect(textOf(oversized)).toContain('23 MiB is the most a file may be however it is given');
  expect(oversized.structuredContent).toMatchObject({ error: { field: 'image_base64' } });
  const after = await client.callTool({
    name: 'translate',
    arguments: { text: 'Good morning', target_language: 'de' },
  });
  expect(textOf(after)).toBe('[de] Good morning');
  expect(harness.gateway.emulator.counters.requests.ocr ?? 0).toBe(0);
}, 60_000);

it('an oversized embed call names its texts and says to send fewer per call', async () => {
  // 1400 texts of 31 KB: each within the engine's limit, together over the message limit.
  const texts = Array.from({ length: 1400 }, (_, i) => `chunk ${i} ${'lorem ipsum '.repeat(2600)}`);
  const oversized = await client.callTool({
    name: 'embed',
    arguments: { texts, engine: 'multilingual-e5-base' },
  });
  expect(oversized.isError).toBe(true);
  expect(oversized.structuredContent).toMatchObject({
    error: { code: 'invalid_request_error', field: 'texts' },
  });
  expect(textOf(oversized)).toContain('send fewer or shorter texts per call');
  expect(textOf(oversized)).not.toContain('image_path');
  expect(harness.gateway.emulator.counters.requests.embeddings ?? 0).toBe(0);
}, 60_000);

/** A session over in-process streams, written raw: `answer(id)` waits for the line answering `id`. */
async function rawSession() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stdio = await serveStdio(harness.mcp, { stdin, stdout });
  const lines = createInterface({ input: stdout });
  const answers = new Map<unknown, (message: Record<string, unknown>) => void>();
  lines.on('line', (text) => {
    const message = JSON.parse(text) as Record<string, unknown>;
    answers.get(message.id)?.(message);
  });
  const answer = (id: unknown) =>
    new Promise<Record<string, unknown>>((resolve) => answers.set(id, resolve));
  return { stdin, answer, close: () => stdio.close() };
}

it('finds the id and method of an oversized call wherever they sit outside the params', async () => {
  const session = await rawSession();
  const params = { name: 'ocr', arguments: { image_base64: 'A'.repeat(41 * 1024 * 1024) } };
  // mcp-go's order (method after params), then id after params but not last.
  const mcpGo = session.answer(40);
  session.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 40, params, method: 'tools/call' })}\n`,
  );
  const idInside = session.answer(41);
  session.stdin.write(
    `${JSON.stringify({ method: 'tools/call', params, id: 41, jsonrpc: '2.0' })}\n`,
  );
  for (const message of [await mcpGo, await idInside]) {
    const result = message.result as {
      isError: boolean;
      structuredContent: { error: { code: string } };
    };
    expect([result.isError, result.structuredContent.error.code]).toEqual([
      true,
      'invalid_request_error',
    ]);
  }
  await session.close();
}, 60_000);

it('an oversized call naming an Object.prototype key is a failed call, and the session goes on', async () => {
  const session = await rawSession();
  const image = 'A'.repeat(41 * 1024 * 1024);
  const names = ['constructor', '__proto__', 'toString'];
  for (const [index, name] of names.entries()) {
    const id = 60 + index;
    const answered = session.answer(id);
    const params = { name, arguments: { image_base64: image } };
    session.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })}\n`,
    );
    const result = (await answered).result as {
      isError: boolean;
      structuredContent: { error: { code: string; field?: string } };
    };
    expect([result.isError, result.structuredContent.error.code]).toEqual([
      true,
      'invalid_request_error',
    ]);
    expect(result.structuredContent.error.field).toBeUndefined();
  }
  const pong = session.answer(70);
  session.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 70, method: 'ping' })}\n`);
  expect(await pong).toEqual({ jsonrpc: '2.0', id: 70, result: {} });
  await session.close();
}, 60_000);

it('reads a message of exactly 40 MiB ended by CRLF', async () => {
  const session = await rawSession();
  const message = (pad: string) =>
    JSON.stringify({ jsonrpc: '2.0', id: 50, method: 'ping', params: { pad } });
  const line = message('A'.repeat(40 * 1024 * 1024 - message('').length));
  expect(line.length).toBe(40 * 1024 * 1024);
  const pong = session.answer(50);
  session.stdin.write(`${line}\r\n`);
  expect(await pong).toEqual({ jsonrpc: '2.0', id: 50, result: {} });
  await session.close();
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
