/**
 * File paths through the tools: only under the allowed roots, sizes checked before reading; URL
 * downloads through the server's media fetch.
 */
import { mkdir, open, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pngWithText } from '@infergate/emulator/fixtures';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createGatewayMcpServer, type GatewayMcpServerOptions } from '../src/index';
import { connectedHarnessOfFile, textOf } from './harness';

const { harness, client } = connectedHarnessOfFile();
beforeAll(async () => {
  await writeFile(join(harness().outside, 'secret.png'), pngWithText('the secret'));
  await symlink(join(harness().outside, 'secret.png'), join(harness().root, 'innocent.png'));
  await symlink(harness().outside, join(harness().root, 'link'));
  await symlink(join(harness().outside, 'gone'), join(harness().root, 'dangling'));
  await mkdir(join(harness().root, 'photos'));
  const big = await open(join(harness().root, 'photos', 'big.png'), 'w');
  await big.truncate(24 * 1024 * 1024); // 1 MiB over the gateway's 23 MiB
  await big.close();
});

/** An SDK client in memory, its server side connected by `serve`. */
async function clientOf(serve: (transport: Transport) => Promise<unknown>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serve(serverSide);
  const remote = new Client({ name: 'remote', version: '1.0.0' });
  await remote.connect(clientSide);
  return remote;
}

const ocrOf = (image_path: string) => client().callTool({ name: 'ocr', arguments: { image_path } });

/**
 * Each image path, and the audio path, refused as outside the allowed roots (the refusal naming the
 * path as given, nothing of the file in it), and nothing sent to the gateway.
 */
async function expectOutside(images: readonly string[], audio?: string): Promise<void> {
  for (const path of images) {
    const result = await ocrOf(path);
    expect(result.isError, path).toBe(true);
    expect(textOf(result), path).toContain(`${path} is outside the allowed roots`);
    expect(textOf(result), path).not.toContain('the secret');
  }
  if (audio !== undefined) {
    const result = await client().callTool({
      name: 'transcribe',
      arguments: { audio_path: audio },
    });
    expect(result.isError, audio).toBe(true);
    expect(textOf(result), audio).toContain(`${audio} is outside the allowed roots`);
  }
  expect(harness().gateway.emulator.counters.requests.ocr).toBe(0);
  expect(harness().gateway.emulator.counters.requests.transcriptions).toBe(0);
}

describe('image_path and audio_path', () => {
  it('refuses paths out of the allowed roots, sending nothing', async () => {
    await expectOutside(
      [
        '../outside/secret.png',
        join(harness().outside, 'secret.png'),
        'innocent.png',
        'photos/../../outside/secret.png',
      ],
      '../outside/secret.png',
    );
  });

  // mcp README: a path is read only under an allowed root. The root's parent directory is not
  // under it, and a missing file there is answered as outside, like an existing one: an answer
  // saying "does not exist" would tell the client what exists beside the root.
  it("refuses the root's parent and a missing file in it as outside the allowed roots, sending nothing", async () => {
    await expectOutside(
      ['..', '../', '../missing.png', 'photos/../..', '../outside'],
      '../missing.wav',
    );
  });

  it('answers alike for a file beyond a symlink that exists and one that does not', async () => {
    // Either answer telling "does not exist" would tell the client which files exist outside.
    await expectOutside([
      'link/secret.png',
      'link/missing.png',
      'link/no/such/dir.png',
      'dangling/secret.png',
      'dangling',
    ]);
    expect(textOf(await ocrOf('photos/missing.png'))).toContain('does not exist');
  });

  it('refuses a file over 23 MiB from its size, sending nothing', async () => {
    const result = await ocrOf('photos/big.png');
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: {
        code: 'file_refused',
        message:
          'photos/big.png is 25165824 bytes; the gateway takes images of at most 24117248 bytes (23 MiB)',
        what_to_do:
          "Give the path of an existing file under the allowed roots the message names, or send the file's bytes as image_base64, or a public image_url (on the internet, not an internal host).",
      },
    });
    expect(harness().gateway.emulator.counters.requests.ocr).toBe(0);
  });

  it('are not offered on sessions without files (the HTTP transport)', async () => {
    const server = harness().mcp.createServer({ files: false });
    const remote = await clientOf((transport) => server.connect(transport));
    const { tools } = await remote.listTools();
    const ocr = tools.find((tool) => tool.name === 'ocr')!;
    expect(Object.keys(ocr.inputSchema.properties ?? {})).toEqual(['image_url', 'image_base64']);
    const result = await remote.callTool({
      name: 'ocr',
      arguments: { image_path: 'photos/x.png' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Input validation error');
    await remote.close();
  });
});

describe('image_url and audio_url', () => {
  // `fetch` is the deprecated name of `mediaFetch`, kept working for this release.
  it.each(['mediaFetch', 'fetch'] as const)('are downloaded with the %s option', async (option) => {
    const downloaded: string[] = [];
    const mediaFetch: typeof fetch = async (input) => {
      downloaded.push(String(input));
      return new Response(pngWithText('From the media fetch'));
    };
    const options: GatewayMcpServerOptions = {
      catalogRefreshMs: 0,
      clientOptions: { baseURL: harness().gateway.baseURL, apiKey: harness().gateway.apiKey },
      [option]: mediaFetch,
      // The host is judged before the fetch is handed the URL: a public address, stubbed.
      resolveHost: async () => ['93.184.215.14'],
    };
    const mcp = createGatewayMcpServer(options);
    const remote = await clientOf((transport) => mcp.connect(transport));
    try {
      const result = await remote.callTool({
        name: 'ocr',
        arguments: { image_url: 'https://images.example/scan.png' },
      });
      expect(textOf(result)).toBe('From the media fetch');
      expect(downloaded).toEqual(['https://images.example/scan.png']);
    } finally {
      await remote.close();
      await mcp.close();
    }
  });
});
