/**
 * A message over the 40 MiB limit is told that 23 MiB is the most a file may be however it is
 * given — a URL download has the same limit — so it is pointed at no other argument: not
 * `image_url` / `audio_url` (on a server that downloads nothing, `--no-urls`, the tools do not take
 * them), not `*_path`. Over Streamable HTTP (the 413's JSON-RPC error, by the MCP SDK's client)
 * and over stdio (the call's tool result), on a server with `allowUrls: false`, against the emulator.
 */
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, serveStdio, startHttpServer } from '../src/index';
import { type Harness, startHarness } from './harness';

const OVER_LIMIT = 41 * 1024 * 1024;
const LIMIT_WORDS = '23 MiB is the most a file may be however it is given';
let harness: Harness;
let server: RunningHttpServer;
beforeAll(async () => {
  harness = await startHarness({ server: { allowUrls: false } });
  server = await startHttpServer(harness.mcp, { port: 0 });
});
afterAll(async () => {
  await server.close();
  await harness.close();
});

/** What a refusal may not point to: an argument no route would take a file over 23 MiB by. */
function expectNoOtherArgument(words: string): void {
  expect(words).toContain(LIMIT_WORDS);
  expect(words).not.toMatch(/_url|_path|as a URL/);
}

describe('the advice for a message over the limit, on a server that downloads nothing', () => {
  it('over HTTP: the 413 names no image_url / audio_url', async () => {
    const client = new Client({ name: 'oversize-advice', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const huge = client.callTool({
        name: 'ocr',
        arguments: { image_base64: 'A'.repeat(OVER_LIMIT) },
      });
      const error = await huge.then(
        () => undefined,
        (thrown: Error) => thrown.message,
      );
      expect(error).toMatch(/Request body over 41943040 bytes/);
      expectNoOtherArgument(error!);
    } finally {
      await client.close();
    }
  });

  it.each([
    ['ocr', 'image_base64'],
    ['transcribe', 'audio_base64'],
    ['not_a_tool', 'image_base64'],
  ])('over stdio: %s names no other argument', async (name, field) => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stdio = await serveStdio(harness.mcp, { stdin, stdout });
    const answered = new Promise<Record<string, unknown>>((resolve) =>
      createInterface({ input: stdout }).once('line', (text) => resolve(JSON.parse(text))),
    );
    const params = { name, arguments: { [field]: 'A'.repeat(OVER_LIMIT) } };
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params })}\n`);
    const result = (await answered).result as {
      isError: boolean;
      structuredContent: { error: { message: string; what_to_do: string } };
    };
    expect(result.isError).toBe(true);
    expectNoOtherArgument(result.structuredContent.error.message);
    await stdio.close();
  });
});
