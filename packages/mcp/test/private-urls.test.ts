/**
 * `image_url` / `audio_url` reach only public internet addresses unless the server allows more
 * (`allowPrivateUrls`, `--allow-private-urls`): a refusal is a tool result (`url_refused`) and
 * nothing reaches the gateway. The only server these tests connect to is the loopback web server
 * below, and only where the server is told to allow it.
 */
import { createServer, type Server } from 'node:http';
import { pngWithText } from '@infergate/emulator/fixtures';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGatewayMcpServer, type GatewayMcpServerOptions } from '../src/index';
import { withCliOverHttp } from './cli-over-http';
import { type Harness, startHarness, textOf } from './harness';
import { closeLoopback, listenOnLoopback } from './loopback-web';

let harness: Harness;
let web: Server;
let port: number;
let connections = 0;
let redirectTo = '';

beforeAll(async () => {
  harness = await startHarness();
  const png = pngWithText('From the loopback server');
  web = createServer((req, res) => {
    if (req.url?.startsWith('/redirect')) {
      return void res.writeHead(302, { location: redirectTo }).end();
    }
    res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
  web.on('connection', () => {
    connections += 1;
  });
  port = await listenOnLoopback(web);
});
afterAll(async () => {
  closeLoopback(web);
  await harness.close();
});
beforeEach(() => {
  harness.gateway.emulator.resetCounters();
  connections = 0;
});

const requests = () => harness.gateway.emulator.counters.requests;

/** A gateway MCP server on the harness's emulator, with `options`, and one client on it. */
async function serverWith(options: Partial<GatewayMcpServerOptions>) {
  const mcp = createGatewayMcpServer({
    catalogRefreshMs: 0,
    clientOptions: {
      baseURL: harness.gateway.baseURL,
      apiKey: harness.gateway.apiKey,
      maxRetries: 0,
    },
    ...options,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: 'private-urls', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    ocr: (image_url: string) => client.callTool({ name: 'ocr', arguments: { image_url } }),
    close: async () => {
      await client.close();
      await mcp.close();
    },
  };
}

const toolErrorOf = (result: unknown) =>
  (result as { structuredContent: { error: { code: string; message: string; host?: string } } })
    .structuredContent.error;

describe('by default', () => {
  it('refuses loopback URLs in any form as url_refused, naming the host, sending nothing', async () => {
    const client = await harness.connect();
    for (const [host, named] of [
      ['127.0.0.1', '127.0.0.1'],
      ['2130706433', '127.0.0.1'],
      ['0x7f.1', '127.0.0.1'],
      ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]'],
    ]) {
      const result = await client.callTool({
        name: 'ocr',
        arguments: { image_url: `http://${host}:${port}/scan.png?token=secret-token` },
      });
      expect(result.isError).toBe(true);
      const error = toolErrorOf(result);
      expect(error.code).toBe('url_refused');
      expect(error.host).toBe(`${named}:${port}`);
      expect(textOf(result)).toMatch(
        /^Cannot download the URL: the URL's host \S+ is a loopback address/,
      );
      expect(JSON.stringify(result)).not.toMatch(/secret-token|scan\.png/);
    }
    const audio = await client.callTool({
      name: 'transcribe',
      arguments: { audio_url: `http://[::1]:${port}/note.mp3` },
    });
    expect(toolErrorOf(audio).code).toBe('url_refused');
    expect(requests().ocr + requests().transcriptions).toBe(0);
    expect(connections).toBe(0);
  });

  it('refuses a public-looking name that resolves to a private or metadata address', async () => {
    for (const addresses of [['10.0.0.7'], ['169.254.169.254'], ['93.184.215.14', 'fd00::7']]) {
      const server = await serverWith({ resolveHost: async () => addresses });
      try {
        const result = await server.ocr('https://images.example/scan.png');
        expect(toolErrorOf(result)).toMatchObject({ code: 'url_refused', host: 'images.example' });
        expect(textOf(result)).toContain('images.example resolves to a');
      } finally {
        await server.close();
      }
    }
    expect(requests().ocr).toBe(0);
  });
});

describe('allowPrivateUrls', () => {
  it('true: downloads from loopback', async () => {
    const server = await serverWith({ allowPrivateUrls: true });
    try {
      expect(textOf(await server.ocr(`http://127.0.0.1:${port}/scan.png`))).toBe(
        'From the loopback server',
      );
      expect(requests().ocr).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('a policy allowing one server: a redirect from it to a refused address is refused', async () => {
    const server = await serverWith({
      allowPrivateUrls: ({ address, port: to }) => address === '127.0.0.1' && to === port,
    });
    try {
      redirectTo = '/scan.png';
      expect(textOf(await server.ocr(`http://127.0.0.1:${port}/redirect`))).toBe(
        'From the loopback server',
      );
      redirectTo = 'http://169.254.169.254/latest/meta-data/?token=secret-token';
      const result = await server.ocr(`http://127.0.0.1:${port}/redirect`);
      expect(toolErrorOf(result)).toMatchObject({ code: 'url_refused', host: '169.254.169.254' });
      expect(textOf(result)).toContain(
        `the download from 127.0.0.1:${port} was redirected to 169.254.169.254, which is a link-local address`,
      );
      expect(JSON.stringify(result)).not.toMatch(/secret-token|meta-data/);
      expect(requests().ocr).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('does not undo allowUrls: false', async () => {
    const server = await serverWith({ allowUrls: false, allowPrivateUrls: true });
    try {
      // (A server that downloads nothing offers no image_url: the input refuses it.)
      const result = await server.ocr(`http://127.0.0.1:${port}/scan.png`);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('unknown argument `image_url`');
      expect(connections).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('infergate-mcp --allow-private-urls', () => {
  async function ocrThroughCli(flags: string[], image_url: string) {
    return withCliOverHttp(harness.gateway, flags, (client) =>
      client.callTool({ name: 'ocr', arguments: { image_url } }),
    );
  }

  it('lets the command download from internal hosts; without it they are refused', async () => {
    const url = `http://127.0.0.1:${port}/scan.png`;
    expect(toolErrorOf(await ocrThroughCli([], url)).code).toBe('url_refused');
    expect(connections).toBe(0);
    expect(textOf(await ocrThroughCli(['--allow-private-urls'], url))).toBe(
      'From the loopback server',
    );
    const refused = await ocrThroughCli(['--allow-private-urls', '--no-urls'], url);
    expect(textOf(refused)).toContain('unknown argument `image_url`');
    expect(connections).toBe(1);
  });
});
