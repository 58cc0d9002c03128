/**
 * A download that failed for now (the web server answered 503 or 429, or the connection failed)
 * is told to try the same URL again in a while, or to send the bytes; only a URL refused as such
 * (a 404, a bad URL) is told the same URL fails the same way again. Through the MCP SDK's Client
 * against the emulator; the only web server is the loopback one below (private URLs allowed).
 */
import { createServer, type Server } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness';
import { closedLoopbackPort, closeLoopback, listenOnLoopback } from './loopback-web';

let harness: Harness;
let client: Client;
let web: Server;
let port: number;

beforeAll(async () => {
  harness = await startHarness({ server: { allowPrivateUrls: true } });
  client = await harness.connect();
  web = createServer((req, res) => {
    const status = Number(req.url?.slice(1));
    res.writeHead(status, { 'content-type': 'text/plain' }).end('no');
  });
  port = await listenOnLoopback(web);
});
afterAll(async () => {
  closeLoopback(web);
  await harness.close();
});

async function adviceFor(path: string): Promise<string> {
  const result = await client.callTool({
    name: 'ocr',
    arguments: { image_url: `http://127.0.0.1:${port}${path}` },
  });
  expect(result.isError).toBe(true);
  const { error } = result.structuredContent as { error: { code: string; what_to_do: string } };
  expect(error.code).toBe('file_refused');
  return error.what_to_do;
}

describe('the what_to_do of a failed download', () => {
  it.each(['/503', '/429'])(
    '%s: try the same URL again in a while, or send the bytes',
    async (path) => {
      const todo = await adviceFor(path);
      expect(todo).toMatch(
        /^Try the same URL again in a while, or send the file's bytes as image_base64/,
      );
      expect(todo).not.toContain('fails the same way again');
    },
  );

  it('a connection refused: try again in a while', async () => {
    const gone = await closedLoopbackPort();
    const result = await client.callTool({
      name: 'ocr',
      arguments: { image_url: `http://127.0.0.1:${gone}/a.png` },
    });
    const { error } = result.structuredContent as { error: { what_to_do: string } };
    expect(error.what_to_do).toMatch(/^Try the same URL again in a while/);
  });

  it('/404: the same URL fails the same way again', async () => {
    expect(await adviceFor('/404')).toContain('the same URL fails the same way again');
  });
});
