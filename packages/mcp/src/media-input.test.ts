import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAccessError } from './allowed-roots';
import { type MediaSources, readMedia } from './media-input';
import { UrlGuard } from './url-guard';

const LIMIT = 1024;
let web: Server;
let base: string;
let bodyBytesSent = 0;

beforeAll(async () => {
  web = createServer((req, res) => {
    switch (req.url) {
      case '/small.png':
        res.writeHead(200, { 'content-length': '3' }).end('abc');
        return;
      case '/declared-large.png':
        // Declares more than the limit; the client must not read the body.
        res.writeHead(200, { 'content-length': String(LIMIT * 100) });
        res.write(Buffer.alloc(10));
        return;
      case '/chunked-large.png': {
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        const chunk = Buffer.alloc(256, 1);
        const pump = () => {
          while (bodyBytesSent < LIMIT * 64) {
            bodyBytesSent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => res.destroy());
        pump();
        return;
      }
      case '/empty.png':
        res.writeHead(200, { 'content-length': '0' }).end();
        return;
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(web.address() as { port: number }).port}`;
});
afterAll(() => {
  web.closeAllConnections();
  web.close();
});

// The test server is on loopback: allowed here, and only it (the guard's own tests are in
// url-download.test.ts).
const sources = (overrides: Partial<MediaSources> = {}): MediaSources => ({
  roots: undefined,
  allowUrls: true,
  guard: new UrlGuard({
    allowPrivateUrls: ({ address, port }) =>
      address === '127.0.0.1' && String(port) === base.split(':')[2],
  }),
  mediaFetch: undefined,
  ...overrides,
});
const read = (args: Record<string, unknown>, options?: Partial<MediaSources>) =>
  readMedia('image', args, LIMIT, sources(options), new AbortController().signal);

describe('readMedia', () => {
  it('passes base64 to core as it is', async () => {
    expect(await read({ image_base64: 'aGk=' })).toBe('aGk=');
  });

  it('downloads a URL within the limit', async () => {
    expect(
      Buffer.from((await read({ image_url: `${base}/small.png` })) as Uint8Array).toString(),
    ).toBe('abc');
  });

  it('refuses a download whose Content-Length is over the limit, before reading it', async () => {
    await expect(read({ image_url: `${base}/declared-large.png` })).rejects.toThrow(
      `the file at 127.0.0.1:${base.split(':')[2]} is ${LIMIT * 100} bytes; the gateway takes images of at most ${LIMIT} bytes`,
    );
  });

  it('stops a download without a length once it passes the limit', async () => {
    await expect(read({ image_url: `${base}/chunked-large.png` })).rejects.toThrow(
      /is larger than 1024 bytes/,
    );
  });

  it('refuses empty downloads, HTTP errors, paths without roots and URLs when downloads are off', async () => {
    await expect(read({ image_url: `${base}/empty.png` })).rejects.toThrow(/is empty/);
    await expect(read({ image_url: `${base}/missing.png` })).rejects.toThrow(/answered HTTP 404/);
    await expect(read({ image_path: 'a.png' })).rejects.toThrow(
      'image_path is not accepted on this transport; send image_url or image_base64',
    );
    await expect(read({ image_url: `${base}/small.png` }, { allowUrls: false })).rejects.toThrow(
      FileAccessError,
    );
  });

  it('names only the host of a URL, never its credentials or query', async () => {
    for (const image_url of [
      'http://user:secret-pass@127.0.0.1:1/x.png',
      'http://127.0.0.1:1/x.png?token=secret-token',
      `${base}/missing.png?token=secret-token`,
    ]) {
      const error = await read({ image_url }).catch((e: Error) => e);
      expect((error as Error).message).toContain('127.0.0.1:');
      expect((error as Error).message).not.toMatch(/secret/);
    }
  });
});
