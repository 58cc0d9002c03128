import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { withCatalog } from '../../test/helpers';
import { createGatewayClient } from '../client/client';
import { type GatewayError, isGatewayError } from './errors';
import { redactKey, redactSecret } from './redact-secret';

const KEY = 'sk-live/Ab+9x_Yz=Q1w2e3r4t5';

/** Every form an echo of the key may take on the wire. */
const FORMS: Record<string, string> = {
  raw: KEY,
  'JSON \\/': KEY.replace(/\//g, '\\/'),
  'JSON \\u002b': KEY.replace(/\+/g, '\\u002b'),
  'JSON \\u escapes of every char': [...KEY]
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join(''),
  'URL-encoded': encodeURIComponent(KEY),
  'URL-encoded lower-case hex': encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) =>
    m.toLowerCase(),
  ),
  base64: btoa(KEY),
  'base64 inside more text (offset 1)': btoa(`x${KEY}y`),
  'base64 inside more text (offset 2)': btoa(`xy${KEY}`),
  base64url: btoa(`Bearer ${KEY}`).replace(/\+/g, '-').replace(/\//g, '_'),
};

const leaks = (text: string) =>
  Object.entries(FORMS).some(([, form]) => text.includes(form)) ||
  text.includes(KEY) ||
  text.includes(btoa(KEY).slice(4, 20));

describe.each([
  ['redactSecret', redactSecret],
  ['redactKey', redactKey],
])('%s', (_fn, redact) => {
  it.each(Object.entries(FORMS))("redacts the key's %s form", (_name, form) => {
    const out = redact(`before ${form} after`, KEY);
    expect(out).toContain('[redacted]');
    expect(leaks(out)).toBe(false);
  });

  it('leaves text without the key alone', () => {
    expect(redact('a plain % message \\n with \\u0041', KEY)).toBe(
      'a plain % message \\n with \\u0041',
    );
  });
});

describe("a short key's base64 forms", () => {
  // The characters a key's bytes alone determine, at each of the three alignments: 6 or more from
  // a key of 5 bytes up; a 4-byte key's are 4 or 5 (left, see MIN_BASE64_FORM).
  it.each(['k3y!9', 'k3y!9Z', 'k3y!9Zq'])(
    'redacts the key %s (5 to 7 bytes) in base64 at every alignment inside longer text',
    (key) => {
      for (const before of ['', 'x', 'xy']) {
        const encoded = btoa(`${before}${key}, and more`);
        expect(redactSecret(`data ${encoded} end`, key), `${before}${key}`).toContain('[redacted]');
      }
    },
  );

  it("leaves a 4-byte key's base64 (as short as ordinary base64 matches by chance)", () => {
    expect(redactSecret(`data ${btoa('k3y!')} end`, 'k3y!')).toBe(`data ${btoa('k3y!')} end`);
  });
});

describe('redactKey (text that leaves the process outside an error)', () => {
  it("redacts every live client's key without being given it, and leaves short keys", () => {
    const live = `ig-live-${Math.random()}`;
    createGatewayClient({ baseURL: 'https://redact-key.test', apiKey: live });
    expect(redactKey(`key ${live} and ${encodeURIComponent(live)}`)).toBe(
      'key [redacted] and [redacted]',
    );
    expect(redactKey('abc abcd', 'abc')).toBe('abc abcd');
  });
});

function clientAnswering(respond: () => Response) {
  return createGatewayClient({
    baseURL: `https://redact-${Math.random()}.test`,
    apiKey: KEY,
    maxRetries: 0,
    // (Core gates each chat call against GET /models: the stub lists the model.)
    fetch: withCatalog(async () => respond()),
  });
}

async function failure(run: () => Promise<unknown>): Promise<GatewayError> {
  try {
    await run();
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

function everything(error: GatewayError): string {
  return [
    error.message,
    error.stack,
    JSON.stringify(error),
    JSON.stringify(error.data),
    error.body,
    inspect(error, { showHidden: true, depth: 10, getters: true }),
  ].join('\n');
}

describe('a start of the key a cut leaves (text cut before it was redacted)', () => {
  it.each([
    ['redactSecret', redactSecret],
    ['redactKey', redactKey],
  ])('%s redacts 8 or more of its first characters right before a cut mark', (_fn, redact) => {
    expect(redact(`said ${KEY.slice(0, 12)}… more`, KEY)).toBe('said [redacted]… more');
    expect(redact(`${KEY.slice(0, 8)}…`, KEY)).toBe('[redacted]…');
    expect(redact(`a ${KEY.slice(0, 5)}… ${KEY.slice(0, 9)}…`, KEY)).toBe(
      `a ${KEY.slice(0, 5)}… [redacted]…`,
    );
    // Not at a cut, or shorter than 8: ordinary text.
    expect(redact(`${KEY.slice(0, 12)} more`, KEY)).toBe(`${KEY.slice(0, 12)} more`);
    expect(redact(`${KEY.slice(0, 7)}…`, KEY)).toBe(`${KEY.slice(0, 7)}…`);
  });

  it.each([
    ['JSON-escaped', (key: string) => key.replace('/', '\\/')],
    ['URL-encoded', encodeURIComponent],
    [
      'URL-encoded, lower-case hex',
      (key: string) => encodeURIComponent(key).replace(/%2F/, '%2f').replace(/%2B/, '%2b'),
    ],
  ])('in its %s form too, a cut through an escape included', (_form, encode) => {
    const key = 'sk-live/Zq8+Rt2wXy9LmNoPqRsTuVwX';
    const form = encode(key);
    for (const cut of [14, form.indexOf('/') + 1, form.indexOf('%') + 2]) {
      if (cut < 8) continue;
      expect(redactSecret(`said ${form.slice(0, cut)}… more`, key)).toBe('said [redacted]… more');
    }
  });
});

const ask = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('every string an error carries is redacted', () => {
  /** Answers that echo the key: how each is read (a stream or not) and the error it ends in. */
  const echoes = [
    {
      what: 'HTTP error body echoing the key',
      stream: false,
      code: 'invalid_api_key',
      answer: (form: string) =>
        new Response(
          `{"error":{"code":"invalid_api_key","message":"bad key ${form}","type":"auth"}}`,
          { status: 401, headers: { 'content-type': 'application/json' } },
        ),
    },
    {
      what: 'in-stream error event echoing the key',
      stream: true,
      code: 'provider_request_failed',
      answer: (form: string) =>
        new Response(
          `data: {"error":{"code":"provider_request_failed","message":"upstream said ${form}"}}\n\n`,
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    },
    {
      what: 'malformed stream event echoing the key',
      stream: true,
      code: 'provider_protocol_error',
      answer: (form: string) =>
        new Response(`data: {"choices": oops ${form}\n\n`, {
          headers: { 'content-type': 'text/event-stream' },
        }),
    },
  ];
  it.each(
    echoes.flatMap((echo) =>
      Object.entries(FORMS).map(([name, form]) => ({ ...echo, name, form })),
    ),
  )('$what ($name)', async ({ answer, stream, code, form }) => {
    const client = clientAnswering(() => answer(form));
    const error = await failure(
      stream
        ? async () => {
            const opened = await client.chatStream(ask);
            await opened.result();
          }
        : () => client.chat(ask),
    );
    expect(error.code).toBe(code);
    expect(leaks(everything(error))).toBe(false);
  });

  it('a SyntaxError cause does not quote the body', async () => {
    const client = clientAnswering(
      () =>
        new Response(`not json at all: secret-ish text ${KEY}`, {
          headers: { 'content-type': 'application/json' },
        }),
    );
    const error = await failure(() => client.chat(ask));
    expect(error.code).toBe('invalid_response');
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect((error.cause as Error).message).not.toContain('not json');
    expect(leaks(everything(error))).toBe(false);
  });

  it('a cause whose message holds the key is replaced by a redacted copy', async () => {
    const client = createGatewayClient({
      baseURL: 'https://x.test',
      apiKey: KEY,
      maxRetries: 0,
      fetch: withCatalog(async () => {
        throw new TypeError(`fetch failed for ${KEY}`);
      }),
    });
    const error = await failure(() => client.chat(ask));
    expect(error.code).toBe('network_error');
    expect(leaks(everything(error))).toBe(false);
    expect((error.cause as Error).name).toBe('TypeError');
    expect((error.cause as Error).message).toBe('fetch failed for [redacted]');
  });

  /** Every view of an error that reaches a log or another thread, hidden properties too. */
  const deepViews = (error: GatewayError) =>
    [
      everything(error),
      inspect(error, { showHidden: true, depth: Number.POSITIVE_INFINITY }),
      inspect(structuredClone(error), { showHidden: true, depth: Number.POSITIVE_INFINITY }),
    ].join('\n');

  const failingWith = (thrown: (headers: Headers) => unknown) =>
    createGatewayClient({
      baseURL: 'https://x.test',
      apiKey: KEY,
      maxRetries: 0,
      fetch: withCatalog(async (_url, init) => {
        throw thrown(new Headers(init?.headers));
      }),
    });

  it('a key deep in the cause chain is redacted, the chain keeping names, messages and codes', async () => {
    const client = failingWith(() => {
      const inner = Object.assign(new RangeError(`proxy refused Bearer ${KEY}`), {
        code: 'E_PROXY',
      });
      return new TypeError('fetch failed', { cause: new Error('socket closed', { cause: inner }) });
    });
    const error = await failure(() => client.chat(ask));
    expect(leaks(deepViews(error))).toBe(false);
    const cause = error.cause as Error;
    expect(cause).toBeInstanceOf(TypeError);
    expect(cause.message).toBe('fetch failed');
    const inner = (cause.cause as Error).cause as Error & { code?: string };
    expect((cause.cause as Error).message).toBe('socket closed');
    expect(inner).toBeInstanceOf(RangeError);
    expect([inner.message, inner.code]).toEqual(['proxy refused Bearer [redacted]', 'E_PROXY']);
  });

  it('a key in an extra property of the cause is dropped with that property', async () => {
    const client = failingWith((headers) =>
      Object.assign(new TypeError('fetch failed'), {
        options: { headers: Object.fromEntries(headers) },
      }),
    );
    const error = await failure(() => client.chat(ask));
    expect(leaks(deepViews(error))).toBe(false);
    expect((error.cause as Error).message).toBe('fetch failed');
    expect(Object.keys(error.cause as object)).toEqual([]);
  });

  /** Classes that keep what they hold out of own properties, where inspect still prints it. */
  const containers: Record<string, (headers: Headers) => object> = {
    Headers: (headers) => headers,
    Request: (headers) => new Request('https://x.test/v1/chat/completions', { headers }),
    Response: (headers) => new Response(null, { headers }),
    Map: (headers) => new Map(headers),
    'Set of entries': (headers) => new Set(headers),
    'array of entries': (headers) => [...headers],
    URL: () => new URL(`https://x.test/v1?key=${encodeURIComponent(KEY)}`),
    URLSearchParams: () => new URLSearchParams({ key: KEY }),
  };

  it.each(Object.entries(containers))(
    'a key inside a %s an extra property of the cause holds is dropped with that property',
    async (_name, contain) => {
      const client = failingWith((headers) =>
        Object.assign(new TypeError('fetch failed'), { options: { headers: contain(headers) } }),
      );
      const error = await failure(() => client.chat(ask));
      expect(inspect(error, { depth: 20 })).not.toContain('Q1w2e3r4t5');
      expect(leaks(everything(error) + inspect(error, { depth: 20 }))).toBe(false);
      expect(Object.keys(error.cause as object)).toEqual([]);
    },
  );

  it('a cause that is itself a Headers holding the key is replaced', async () => {
    const error = await failure(() =>
      failingWith((headers) => new TypeError('fetch failed', { cause: headers })).chat(ask),
    );
    expect(inspect(error, { depth: 20, showHidden: true })).not.toContain('Q1w2e3r4t5');
    expect((error.cause as Error).message).toBe('fetch failed');
  });

  it("a body stream's failure holding the request's Headers is redacted", async () => {
    const client = createGatewayClient({
      baseURL: 'https://x.test',
      apiKey: KEY,
      maxRetries: 0,
      fetch: withCatalog(async (_url, init) => {
        const thrown = Object.assign(new TypeError('terminated'), {
          request: new Request('https://x.test/v1/chat/completions', init),
        });
        const body = new ReadableStream({ pull: (controller) => controller.error(thrown) });
        return new Response(body, { headers: { 'content-type': 'application/json' } });
      }),
    });
    const error = await failure(() => client.chat(ask));
    expect(error.code).toBe('network_error');
    expect(inspect(error, { depth: 20, showHidden: true })).not.toContain('Q1w2e3r4t5');
  });

  it('a Map without the key stays the cause as it is, and a cause that throws when read is dropped', async () => {
    const thrown = Object.assign(new TypeError('fetch failed'), { meta: new Map([['a', 'b']]) });
    expect((await failure(() => failingWith(() => thrown).chat(ask))).cause).toBe(thrown);
    const trap = new Proxy(new TypeError('fetch failed'), {
      ownKeys: () => {
        throw new Error('no');
      },
    });
    const error = await failure(() => failingWith(() => trap).chat(ask));
    expect(error.code).toBe('network_error');
  });

  const answering = (answer: () => Response) =>
    createGatewayClient({
      baseURL: 'https://x.test',
      apiKey: KEY,
      maxRetries: 0,
      fetch: withCatalog(async () => answer()),
    });
  /** Any run of the key's first 8 characters or more. */
  const holdsKeyStart = (text: string) => text.includes(KEY.slice(0, 8));

  it("a malformed stream event's excerpt, cut at 2000 characters inside the key, keeps no start of it", async () => {
    const client = answering(
      () =>
        new Response(`data: {"bad":"${'x'.repeat(1980)}${KEY}\n\n`, {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    const error = await failure(async () => {
      for await (const _ of await client.chatStream(ask));
    });
    expect(error.code).toBe('provider_protocol_error');
    expect(error.body).toMatch(/\[redacted\]…$/);
    expect(holdsKeyStart(deepViews(error))).toBe(false);
  });

  it('an error body cut at maxErrorBodyBytes inside the key keeps no start of it', async () => {
    const client = answering(
      () =>
        new Response(`${'x'.repeat(64 * 1024 - 12)}${KEY}`, {
          status: 500,
          headers: { 'content-type': 'text/plain' },
        }),
    );
    const error = await failure(() => client.chat(ask));
    expect(error.body).toContain('[redacted]…\n[infergate: error body cut after');
    expect(holdsKeyStart(deepViews(error))).toBe(false);
  });

  it('a steered call\'s "Every model tried failed" message keeps no start of a key its cut split', async () => {
    const said = `upstream said: ${'z'.repeat(175)} ${KEY}`;
    const client = createGatewayClient({
      baseURL: 'https://x.test',
      apiKey: KEY,
      maxRetries: 0,
      fetch: withCatalog(
        async () =>
          new Response(
            `data: ${JSON.stringify({ error: { message: said, type: 'server_error' } })}\n\n`,
            {
              headers: { 'content-type': 'text/event-stream' },
            },
          ),
        ['m', 'n'],
      ),
    });
    const error = await failure(async () => {
      for await (const _ of await client.chatStream(ask, { fallbackModels: ['n'] }));
    });
    expect(error.message).toContain('Every model tried failed');
    expect(error.message).toContain('[redacted]…');
    expect(holdsKeyStart(deepViews(error))).toBe(false);
  });

  it('a cyclic cause chain holding the key is rebuilt without looping', async () => {
    const client = failingWith(() => {
      // (Named like an Object.prototype member: the copy must not take it for an error class.)
      const a = Object.assign(new Error(`a ${KEY}`), { name: 'toString' });
      const b = new Error('b', { cause: a });
      a.cause = b;
      return a;
    });
    const error = await failure(() => client.chat(ask));
    expect(leaks(deepViews(error))).toBe(false);
    expect(((error.cause as Error).cause as Error).message).toBe('b');
  });

  it('a cause without the key stays the same object', async () => {
    const thrown = Object.assign(new TypeError('fetch failed'), { options: { retry: 2 } });
    const error = await failure(() => failingWith(() => thrown).chat(ask));
    expect(error.cause).toBe(thrown);
  });

  it('a base URL holding the key is redacted from the errors that quote it', async () => {
    const client = createGatewayClient({
      baseURL: `https://x.test/${encodeURIComponent(KEY)}/v1`,
      apiKey: KEY,
      maxRetries: 0,
      fetch: withCatalog(async () => {
        throw new TypeError('fetch failed');
      }),
    });
    const error = await failure(() => client.chat(ask));
    expect(error.message).toContain('https://x.test/[redacted]/v1');
    expect(leaks(everything(error))).toBe(false);
  });

  it('util.inspect of the client never shows the key', () => {
    const client = createGatewayClient({ baseURL: 'https://x.test', apiKey: KEY });
    expect(inspect(client, { showHidden: true, getters: true, depth: 10 })).not.toContain(KEY);
  });
});

describe('secrets at rest (no global state can give the key back)', () => {
  /**
   * What any code can read from the symbol-keyed global state (where core keeps what its copies
   * share), as text. (All of globalThis is inspected in test/secrets-at-rest.test.ts, in a fresh
   * process: here it holds the test runner's worker ports.)
   */
  function globalState(): string {
    const texts: string[] = [];
    for (const symbol of Object.getOwnPropertySymbols(globalThis)) {
      const value = (globalThis as unknown as Record<symbol, unknown>)[symbol];
      texts.push(inspect(value, { showHidden: true, depth: 12, getters: false }));
      // Sets and maps spelled out too (their entries, WeakRefs' targets).
      if (value && typeof value === 'object') {
        for (const inner of Object.values(value)) {
          if (inner instanceof Set || inner instanceof Map) {
            for (const item of inner.values()) {
              const target = item instanceof WeakRef ? item.deref() : item;
              texts.push(inspect(target, { showHidden: true, depth: 12 }), String(target));
            }
          }
        }
      }
    }
    return texts.join('\n');
  }

  it('no raw key is reachable from globalThis, while its clients live and redact', async () => {
    const keys = ['sk-at-rest-one-7f3a9c2e', 'sk-at-rest-two/Ab+9x_Yz'];
    const clients = keys.map((apiKey) =>
      createGatewayClient({
        baseURL: `https://rest-${Math.random()}.test`,
        apiKey,
        maxRetries: 0,
        fetch: withCatalog(
          async () =>
            new Response(`{"error":{"code":"invalid_api_key","message":"bad ${apiKey}"}}`, {
              status: 401,
              headers: { 'content-type': 'application/json' },
            }),
        ),
      }),
    );
    // Redaction still works from what the clients hold: an echo built into any error is redacted.
    for (const [i, client] of clients.entries()) {
      const error = await failure(() => client.chat(ask));
      expect(error.message).not.toContain(keys[i]);
      expect(redactKey(`x ${keys[i]} y`)).toBe('x [redacted] y');
    }
    const state = globalState();
    for (const key of keys) {
      expect(state).not.toContain(key);
      expect(state).not.toContain(btoa(key).slice(4, 16));
      expect(state).not.toContain(key.slice(3, -3).replace(/[/+]/g, ''));
    }
  });
});
