/**
 * This server's own refusals (`url_refused`, `file_refused`, `internal_error`) carry a
 * `what_to_do` as the gateway's do, in the tool's words — the arguments this server takes — and
 * never the operator's flags (`--allow-private-urls` is for whoever runs the server, in the
 * README). Through the MCP SDK's Client against the emulator.
 */
import { createInProcessBudget, type KeyBudget } from '@infergate/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

async function ocr(args: Record<string, unknown>, files = true): Promise<CallToolResult> {
  const client = files ? await harness.connect() : await connectWithoutFiles();
  return (await client.callTool({ name: 'ocr', arguments: args })) as CallToolResult;
}

/** A client of a session without files (as the HTTP transport serves): no `*_path`. */
async function connectWithoutFiles() {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await harness.mcp.createServer({ files: false }).connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

function errorOf(result: CallToolResult) {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: Record<string, unknown> }).error;
}

describe('url_refused', () => {
  it('says to use a public URL or base64, and names no server flag', async () => {
    const result = await ocr({ image_url: 'http://169.254.169.254/latest/meta-data' });
    const error = errorOf(result);
    expect(error).toMatchObject({ code: 'url_refused', host: '169.254.169.254' });
    expect(error.what_to_do).toBe(
      "Send a public image_url (on the internet, not an internal host), or the file's bytes as image_base64, or an image_path under the allowed roots; the same URL fails the same way again.",
    );
    expect(textOf(result)).toBe(`Cannot download the URL: ${error.message}\n${error.what_to_do}`);
    expect(JSON.stringify(result)).not.toMatch(/allow-private-urls|allowPrivateUrls/);
  });

  it('on a session without files, names no path', async () => {
    const error = errorOf(await ocr({ image_url: 'http://10.0.0.1/scan.png' }, false));
    expect(error.what_to_do).toBe(
      "Send a public image_url (on the internet, not an internal host), or the file's bytes as image_base64; the same URL fails the same way again.",
    );
  });
});

describe('file_refused', () => {
  it('a path outside the roots: a path under them, base64 or a URL', async () => {
    const result = await ocr({ image_path: '/etc/passwd' });
    const error = errorOf(result);
    expect(error.code).toBe('file_refused');
    expect(error.what_to_do).toBe(
      "Give the path of an existing file under the allowed roots the message names, or send the file's bytes as image_base64, or a public image_url (on the internet, not an internal host).",
    );
    expect(textOf(result)).toBe(`Cannot use the file: ${error.message}\n${error.what_to_do}`);
  });

  it('a missing file: the same', async () => {
    const error = errorOf(await ocr({ image_path: 'missing.png' }));
    expect(error.code).toBe('file_refused');
    expect(error.what_to_do).toMatch(/^Give the path of an existing file under the allowed roots/);
  });

  it('a URL it cannot download, on a session without files: base64 or a URL', async () => {
    // (The tool's schema refuses image_path there; a URL with credentials is refused unsent.)
    const error = errorOf(await ocr({ image_url: 'https://user:pw@example.com/scan.png' }, false));
    expect(error.code).toBe('file_refused');
    expect(error.what_to_do).toBe(
      "Send a public image_url (on the internet, not an internal host), or the file's bytes as image_base64; the same URL fails the same way again.",
    );
  });
});

describe('internal_error', () => {
  it('says to try once more, then stop and tell whoever runs the server', async () => {
    const inProcess = createInProcessBudget();
    let fail = false;
    const budget: KeyBudget = {
      acquire: (request) =>
        fail ? Promise.reject(new Error('the budget store is down')) : inProcess.acquire(request),
    };
    const failing = await startHarness({ server: { clientOptions: { budget } } });
    try {
      const client = await failing.connect();
      fail = true;
      const result = (await client.callTool({
        name: 'translate',
        arguments: { text: 'hi', target_language: 'de' },
      })) as CallToolResult;
      const error = errorOf(result);
      expect(error).toMatchObject({ code: 'internal_error', message: 'the budget store is down' });
      expect(error.what_to_do).toBe(
        'This server failed in a way the arguments did not cause: try once more, and if it fails again stop and tell the person who runs this server.',
      );
      expect(textOf(result)).toBe(`The tool failed: the budget store is down\n${error.what_to_do}`);
    } finally {
      await failing.close();
    }
  });
});
