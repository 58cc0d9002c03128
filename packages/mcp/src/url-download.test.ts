/**
 * Where URL downloads may connect. The only server these tests connect to is on 127.0.0.1, and
 * only where a policy allows that one server; every other address (private, link-local, …) is
 * refused before a connection, or handed to a fetch spy that never connects.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FileAccessError } from './allowed-roots';
import { downloadUrl, MAX_REDIRECTS, type UrlDownloadOptions } from './url-download';
import { type HostResolver, type PrivateUrlPolicy, UrlGuard, UrlRefusedError } from './url-guard';

const LIMIT = 1024;
let web: Server;
let port: number;
/** Connections the loopback server accepted (a refusal must leave it at 0). */
let connections = 0;
/** Set per test: where `/redirect` sends the client. */
let redirectTo = '';
/** Called when `/silent` has a request. */
let silentReached: (() => void) | undefined;

beforeAll(async () => {
  web = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/image.png') return void res.writeHead(200).end('png');
    if (url.pathname === '/redirect') {
      return void res.writeHead(302, { location: redirectTo }).end();
    }
    if (url.pathname === '/hop') {
      // /hop?n=3 → /hop?n=2 → … → /image.png
      const n = Number(url.searchParams.get('n'));
      return void res.writeHead(302, { location: n > 0 ? `/hop?n=${n - 1}` : '/image.png' }).end();
    }
    if (url.pathname === '/silent') return void silentReached?.(); // never answers
    if (url.pathname === '/stalls') return void res.writeHead(200).write('pn'); // then nothing
    res.writeHead(404).end();
  });
  web.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  port = (web.address() as { port: number }).port;
});
afterAll(() => {
  web.closeAllConnections();
  web.close();
});
beforeEach(() => {
  connections = 0;
  redirectTo = '';
});

/** Allows the loopback test server, and nothing else that is not public. */
const thisServerOnly: PrivateUrlPolicy = (target) =>
  target.address === '127.0.0.1' && target.port === port;

/** A fetch that records what it was handed and never connects. */
function fetchSpy(answer: () => Response = () => new Response('png')) {
  const calls: { url: string; redirect: RequestRedirect | undefined }[] = [];
  const spy: typeof fetch = async (input, init) => {
    calls.push({ url: String(input), redirect: init?.redirect });
    return answer();
  };
  return { spy, calls };
}

const download = (
  url: string,
  options: {
    allowPrivateUrls?: PrivateUrlPolicy;
    resolveHost?: HostResolver;
    fetch?: typeof fetch;
    timeouts?: UrlDownloadOptions['timeouts'];
  } = {},
) =>
  downloadUrl(
    url,
    LIMIT,
    'images',
    { guard: new UrlGuard(options), fetch: options.fetch, timeouts: options.timeouts },
    new AbortController().signal,
  );

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the download was not refused');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(UrlRefusedError);
      return error as UrlRefusedError;
    },
  );

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString();

describe('URL downloads reach only public addresses by default', () => {
  it('refuses loopback in every form the URL parser accepts, without connecting', async () => {
    for (const host of [
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f.1',
      '0x7f000001',
      '017700000001',
      '0177.0.0.1',
      '%31%32%37.0.0.1',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      '[::1]',
    ]) {
      const error = await refusal(download(`http://${host}:${port}/image.png?sig=secret-sig`));
      expect(error.message, host).toContain('is a loopback address');
      expect(error.message).not.toContain('secret-sig');
      expect(error.message).not.toContain('image.png');
    }
    // The URL parser has turned every IPv4 form into the address itself: the message names it.
    expect((await refusal(download(`http://0x7f.1:${port}/`))).host).toBe(`127.0.0.1:${port}`);
    expect(connections).toBe(0);
  });

  it('refuses localhost by the addresses the system resolver gives it, without connecting', async () => {
    const error = await refusal(download(`http://localhost:${port}/image.png`));
    expect(error.message).toBe(
      `the URL's host localhost:${port} resolves to a loopback address; this server downloads only from public internet addresses`,
    );
    expect(connections).toBe(0);
  });

  it('refuses each non-public class, IPv4, IPv6, IPv4-mapped and numeric, before handing a URL over', async () => {
    const { spy, calls } = fetchSpy();
    const cases: [string, string][] = [
      ['10.0.0.1', 'a private address'],
      ['172.16.5.4', 'a private address'],
      ['192.168.0.10', 'a private address'],
      ['100.64.1.1', 'a private address'],
      ['[fd00::1]', 'a private address'],
      ['[::ffff:192.168.0.1]', 'a private address'],
      ['169.254.169.254', 'a link-local address (where cloud metadata services answer)'],
      ['2852039166', 'a link-local address'],
      ['0xa9.0xfe.0xa9.0xfe', 'a link-local address'],
      ['[fe80::1]', 'a link-local address'],
      ['[::ffff:169.254.169.254]', 'a link-local address'],
      ['[64:ff9b::a9fe:a9fe]', 'a link-local address'],
      ['[fd00:ec2::254]', 'a private address'],
      ['0.0.0.0', 'the unspecified address'],
      ['0', 'the unspecified address'],
      ['[::]', 'the unspecified address'],
      ['224.0.0.1', 'a multicast address'],
      ['[ff02::1]', 'a multicast address'],
      ['255.255.255.255', 'a reserved address'],
      ['192.0.2.1', 'a reserved address'],
      ['[2001:db8::1]', 'a reserved address'],
    ];
    for (const [host, phrase] of cases) {
      for (const scheme of ['http', 'https']) {
        const error = await refusal(
          download(`${scheme}://${host}/latest/meta-data/?token=secret-token`, { fetch: spy }),
        );
        expect(error.message, host).toContain(phrase);
        expect(error.message).not.toContain('secret-token');
        expect(error.message).not.toContain('meta-data');
      }
    }
    expect(calls).toEqual([]);
  });

  it('refuses a public-looking name that resolves to a refused address', async () => {
    // The server's own requests: the name resolves to loopback, the test server is not reached.
    const error = await refusal(
      download(`http://images.example:${port}/image.png`, {
        resolveHost: async () => ['127.0.0.1'],
      }),
    );
    expect(error.message).toContain(`images.example:${port} resolves to a loopback address`);
    expect(connections).toBe(0);
    // A fetch of the caller's own is handed nothing: every address is judged, all must pass.
    const { spy, calls } = fetchSpy();
    for (const addresses of [
      ['10.0.0.7'],
      ['169.254.169.254'],
      ['::ffff:10.0.0.7'],
      ['fd00::7'],
      ['93.184.215.14', '10.0.0.7'],
    ]) {
      const refused = await refusal(
        download('https://cdn.images.example/a.png', {
          fetch: spy,
          resolveHost: async () => addresses,
        }),
      );
      expect(refused.message).toMatch(/^the URL's host cdn\.images\.example resolves to /);
    }
    expect(calls).toEqual([]);
  });

  it('connects to the addresses it judged: one look-up per connection, none in between', async () => {
    // A rebinding name: loopback (allowed for the test server) first, something else after.
    const lookups: string[] = [];
    const rebinding: HostResolver = async (hostname) => {
      lookups.push(hostname);
      return lookups.length === 1 ? ['127.0.0.1'] : ['127.0.0.3'];
    };
    const bytes = await download(`http://media.example:${port}/image.png`, {
      allowPrivateUrls: thisServerOnly,
      resolveHost: rebinding,
    });
    expect(text(bytes)).toBe('png');
    expect(lookups).toEqual(['media.example']);
    expect(connections).toBe(1);
  });

  it('hands a fetch of the caller’s own a judged URL, with redirect: manual', async () => {
    const { spy, calls } = fetchSpy();
    const bytes = await download('https://images.example/scan.png', {
      fetch: spy,
      resolveHost: async () => ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
    expect(text(bytes)).toBe('png');
    expect(calls).toEqual([{ url: 'https://images.example/scan.png', redirect: 'manual' }]);
  });

  it('allows every address with allowPrivateUrls: true (and resolves nothing for a custom fetch)', async () => {
    expect(
      text(await download(`http://127.0.0.1:${port}/image.png`, { allowPrivateUrls: true })),
    ).toBe('png');
    const resolved: string[] = [];
    const { spy, calls } = fetchSpy();
    await download('http://intranet.corp/a.png', {
      allowPrivateUrls: true,
      fetch: spy,
      resolveHost: async (name) => {
        resolved.push(name);
        return ['10.0.0.1'];
      },
    });
    expect(resolved).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('asks a policy function about each non-public address, with its host, address, port and class', async () => {
    const asked: unknown[] = [];
    const { spy } = fetchSpy();
    await download('http://images.internal:8080/a.png', {
      fetch: spy,
      resolveHost: async () => ['10.1.2.3'],
      allowPrivateUrls: (target) => {
        asked.push(target);
        return true;
      },
    });
    await download('https://93.184.215.14/a.png', { fetch: spy, allowPrivateUrls: () => false });
    expect(asked).toEqual([
      { hostname: 'images.internal', address: '10.1.2.3', port: 8080, addressClass: 'private' },
    ]);
  });
});

describe('redirects', () => {
  it('follows redirects itself, at most 5', async () => {
    const options = { allowPrivateUrls: thisServerOnly };
    expect(
      text(await download(`http://127.0.0.1:${port}/hop?n=${MAX_REDIRECTS - 1}`, options)),
    ).toBe('png');
    await expect(
      download(`http://127.0.0.1:${port}/hop?n=${MAX_REDIRECTS}`, options),
    ).rejects.toThrow(`the download from 127.0.0.1:${port} was redirected more than 5 times`);
  });

  it('judges every hop: a redirect from an allowed server to a refused address is refused', async () => {
    for (const [target, phrase] of [
      [
        'http://169.254.169.254/latest/meta-data/iam/?token=secret-token',
        '169.254.169.254, which is a link-local address',
      ],
      [
        `http://localhost:${port + 1}/image.png`,
        `localhost:${port + 1}, which resolves to a loopback address`,
      ],
      [
        `http://127.0.0.1:${port + 1}/image.png`,
        `127.0.0.1:${port + 1}, which is a loopback address`,
      ],
      ['http://10.0.0.1/', '10.0.0.1, which is a private address'],
    ] as const) {
      redirectTo = target;
      const error = await refusal(
        download(`http://127.0.0.1:${port}/redirect?sig=secret-sig`, {
          allowPrivateUrls: thisServerOnly,
        }),
      );
      expect(error.message).toContain(
        `the download from 127.0.0.1:${port} was redirected to ${phrase}`,
      );
      expect(error.message).not.toMatch(/secret|meta-data/);
    }
    // A redirect answered to a fetch of the caller's own is judged the same way.
    const redirecting = fetchSpy(
      () =>
        new Response(null, { status: 302, headers: { location: 'http://[::ffff:a9fe:a9fe]/' } }),
    );
    await refusal(
      download('https://images.example/a.png', {
        fetch: redirecting.spy,
        resolveHost: async () => ['93.184.215.14'],
      }),
    );
    expect(redirecting.calls).toHaveLength(1);
  });

  it('refuses redirects to other schemes and to URLs with credentials', async () => {
    const options = { allowPrivateUrls: thisServerOnly };
    redirectTo = 'file:///etc/passwd';
    await expect(download(`http://127.0.0.1:${port}/redirect`, options)).rejects.toThrow(
      'only http(s) URLs are downloaded, not file:',
    );
    redirectTo = `http://user:pass@127.0.0.1:${port}/image.png`;
    await expect(download(`http://127.0.0.1:${port}/redirect`, options)).rejects.toThrow(
      'carries credentials',
    );
  });
});

describe('the server’s own requests', () => {
  it('give up when nothing arrives for the idle timeout, before or after the headers', async () => {
    for (const path of ['/silent', '/stalls']) {
      const error = await download(`http://127.0.0.1:${port}${path}`, {
        allowPrivateUrls: thisServerOnly,
        timeouts: { idleMs: 50 },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FileAccessError);
      expect((error as Error).message).toBe(
        `the download from 127.0.0.1:${port} failed (nothing received for 50 ms)`,
      );
    }
  });

  it('stop when the tool call is cancelled, with its reason', async () => {
    const controller = new AbortController();
    const reached = new Promise<void>((resolve) => {
      silentReached = resolve;
    });
    const pending = downloadUrl(
      `http://127.0.0.1:${port}/silent`,
      LIMIT,
      'images',
      { guard: new UrlGuard({ allowPrivateUrls: thisServerOnly }), fetch: undefined },
      controller.signal,
    );
    await reached;
    const reason = new Error('the tool call was cancelled');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('give up when no connection is made within the connect timeout', async () => {
    // A look-up that never answers keeps the socket connecting, without any address reached.
    const error = await download('http://slow-dns.example/a.png', {
      resolveHost: () => new Promise(() => {}),
      timeouts: { connectMs: 50 },
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'the download from slow-dns.example failed (no connection within 50 ms)',
    );
  });

  it('name a failure by its code, never quoting the URL', async () => {
    // Port 1: nothing in the suite listens there. A port near the server's own was free only
    // until a test running beside this one was given it (it answered 401).
    const error = await download('http://127.0.0.1:1/x.png?token=secret-token', {
      allowPrivateUrls: true,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('the download from 127.0.0.1:1 failed (ECONNREFUSED)');
  });
});
