/**
 * What the README says of two edges, checked through the MCP SDK's Client against the emulator:
 * the server does not advertise `resources.listChanged` (its resource list never changes and it
 * never sends the notification), and over HTTP (`files: false`) an `image_path` is refused by the
 * tool's schema as an unknown argument, not with `file_refused`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { harnessOfFile, textOf } from './harness';

const harness = harnessOfFile();

/** A session as the HTTP transport makes them (no file paths), with an SDK client on it. */
async function sessionWithoutFiles(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await harness().mcp.connect(serverSide, { files: false });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('the server as the README describes it', () => {
  it('advertises tools.listChanged (sent) and not resources.listChanged (never sent)', async () => {
    const client = await harness().connect();
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.tools?.listChanged).toBe(true);
    expect(capabilities?.resources).toBeDefined();
    expect(capabilities?.resources?.listChanged).not.toBe(true);
  });

  it('refuses image_path without files as an unknown argument, not file_refused', async () => {
    const client = await sessionWithoutFiles();
    try {
      const result = (await client.callTool({
        name: 'ocr',
        arguments: { image_path: 'scan.png' },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('unknown argument `image_path`');
      expect(JSON.stringify(result)).not.toContain('file_refused');
    } finally {
      await client.close();
    }
  });
});
