import { afterEach, describe, expect, it, vi } from 'vitest';
import { withCatalog } from '../../test/helpers';
import { createGatewayClient } from '../client/client';
import { isGatewayError } from '../errors/errors';

afterEach(() => {
  vi.useRealTimers();
});

describe('a call handed a slot after its deadline', () => {
  it('gives the slot back and fails with timeout without sending a request', async () => {
    // The services load on first use; loaded under fake timers, they could arrive after the clock
    // was advanced (a cold module cache: this file run alone), leaving every deadline unfired.
    await import('../services/service-calls');
    vi.useFakeTimers();
    // The first call's answer comes at its deadline, its timer made before the deadlines' (so it
    // fires first): the slot is given back whole (a request answered, not one we cut, whose slot
    // would be kept a while) and handed to the next queued call before that call's own timer, due
    // in the same millisecond, has fired.
    const answered = new Promise<void>((resolve) => setTimeout(resolve, 100));
    let sent = 0;
    const fetch: typeof globalThis.fetch = async () => {
      sent++;
      await answered;
      return Response.json({ text: 'ok', target_language: 'uk' });
    };
    const client = createGatewayClient({
      baseURL: 'https://queued-deadline.test/v1',
      apiKey: 'k',
      fetch,
      maxConcurrency: 1,
      timeoutMs: 100,
    });
    const calls = Array.from({ length: 3 }, () =>
      client.translate({ input: 'hi', target_language: 'uk' }).catch((error: unknown) => error),
    );
    await vi.advanceTimersByTimeAsync(100);
    const [first, ...queued] = await Promise.all(calls);
    expect(first).toMatchObject({ text: 'ok' });
    expect(queued.map((error) => (isGatewayError(error) ? error.code : error))).toEqual([
      'timeout',
      'timeout',
    ]);
    expect(sent).toBe(1);
    expect(client.budget.isIdle).toBe(true);
  });
});

describe('request headers', () => {
  /** A fetch answering `{}` that records the headers of every request it was sent. */
  function recordingFetch() {
    const seen: Headers[] = [];
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      seen.push(new Headers(init?.headers));
      return new Response('{"data":[]}', { headers: { 'content-type': 'application/json' } });
    };
    return { fetch, seen };
  }

  it('sends the client headers, the key, accept and content-type; call headers add to them', async () => {
    const { fetch, seen } = recordingFetch();
    const client = createGatewayClient({
      baseURL: 'https://headers.test/v1',
      apiKey: 'k1',
      fetch,
      headers: { 'X-Team': 'a', Accept: 'text/plain' },
      catalogTtlMs: 0,
    });
    await client.models({ headers: {} });
    await client.models({ headers: { 'x-call': '1' } });
    await client.models();
    for (const headers of seen) {
      expect(headers.get('x-team')).toBe('a');
      expect(headers.get('authorization')).toBe('Bearer k1');
      expect(headers.get('accept')).toBe('application/json');
    }
    expect(seen.map((headers) => headers.get('x-call'))).toEqual([null, '1', null]);
  });

  it("a call's header replaces the client's of that name in any case; its own names differing by case are joined", async () => {
    const { fetch, seen } = recordingFetch();
    const client = createGatewayClient({
      baseURL: 'https://headers.test/v1',
      apiKey: 'k1',
      fetch,
      headers: { 'X-Team': 'a', 'X-Keep': 'k' },
      catalogTtlMs: 0,
    });
    await client.models({ headers: { 'x-team': 'b', 'X-Trace': '1', 'x-trace': '2' } });
    const [headers] = seen;
    expect(headers?.get('x-team')).toBe('b');
    expect(headers?.get('x-keep')).toBe('k');
    expect(headers?.get('x-trace')).toBe('1, 2');
    expect(headers?.get('authorization')).toBe('Bearer k1');
  });

  it('a header name holding the API key (a pasted `Authorization: Bearer` line) is quoted without it', async () => {
    const { fetch, seen } = recordingFetch();
    const key = 'sk-live-ABCDEFGH12345678';
    const pasted = { [`Authorization: Bearer ${key}`]: '' };
    const options = { baseURL: 'https://headers.test/v1', apiKey: key, fetch, catalogTtlMs: 0 };
    const atCreation = (() => {
      try {
        createGatewayClient({ ...options, headers: pasted });
      } catch (error) {
        return error as Error;
      }
      throw new Error('not refused');
    })();
    const perCall = await createGatewayClient(options)
      .models({ headers: pasted })
      .then(
        () => new Error('not refused'),
        (caught: unknown) => caught as Error,
      );
    // The key from the environment too, and a long key that a cut at 60 characters would split.
    const longKey = `sk-${'L'.repeat(70)}`;
    vi.stubEnv('INFERGATE_API_KEY', longKey);
    const fromEnv = (() => {
      try {
        createGatewayClient({
          baseURL: options.baseURL,
          fetch,
          headers: { [`Bearer ${longKey}`]: '' },
        });
      } catch (error) {
        return error as Error;
      }
      throw new Error('not refused');
    })();
    vi.unstubAllEnvs();
    for (const error of [atCreation, perCall]) {
      expect(error.message).toBe(
        'Invalid header in `headers`: `Authorization: …` (the rest not shown: it may hold a credential) is not a valid header name',
      );
    }
    expect(fromEnv.message).toBe(
      'Invalid header in `headers`: `Bearer …` (the rest not shown: it may hold a credential) is not a valid header name',
    );
    expect(fromEnv.message).not.toContain('LLLL');
    expect(seen).toHaveLength(0);
  });

  it('an invalid client header is refused at creation; a call header, per call before sending', async () => {
    const { fetch, seen } = recordingFetch();
    const options = { baseURL: 'https://headers.test/v1', apiKey: 'k1', fetch, catalogTtlMs: 0 };
    expect(() => createGatewayClient({ ...options, headers: { 'bad header': 'x' } })).toThrow(
      /^Invalid header in `headers`: `bad …` \(the rest not shown: it may hold a credential\) is not a valid header name/,
    );
    const client = createGatewayClient(options);
    for (let call = 0; call < 2; call++) {
      const error = await client
        .models({ headers: { 'bad header': 'x' } })
        .catch((caught: unknown) => caught);
      expect(isGatewayError(error) && error.code).toBe('configuration_error');
      expect(isGatewayError(error) && error.message).toMatch(/^Invalid header in `headers`/);
    }
    expect(seen).toHaveLength(0);
  });
});

describe('one retry policy (the transport retries exactly what isRetryable says)', () => {
  /** A fetch answering the given responses in turn (the last one repeats); counts requests. */
  function answering(...make: (() => Response | Promise<Response>)[]) {
    const sent = { count: 0 };
    const fetch: typeof globalThis.fetch = async () => {
      const next = make[Math.min(sent.count, make.length - 1)]!;
      sent.count++;
      return next();
    };
    return { fetch, sent };
  }
  const gatewayError = (status: number, code: string, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify({ error: { code, message: code } }), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const ok = () =>
    new Response('{"text":"ok","target_language":"uk"}', {
      headers: { 'content-type': 'application/json' },
    });
  const client = (fetch: typeof globalThis.fetch, maxRetries = 2) =>
    createGatewayClient({
      baseURL: 'https://retry-policy.test/v1',
      apiKey: 'k',
      fetch,
      maxRetries,
      retryBaseDelayMs: 0,
    });
  const translate = (c: ReturnType<typeof client>, maxRetries?: number) =>
    c.translate(
      { input: 'hi', target_language: 'uk' },
      maxRetries === undefined ? {} : { maxRetries },
    );

  it('retries a single 500, 502, 503 and 504', async () => {
    for (const status of [500, 502, 503, 504]) {
      const { fetch, sent } = answering(() => gatewayError(status, 'provider_request_failed'), ok);
      expect((await translate(client(fetch))).text).toBe('ok');
      expect(sent.count).toBe(2);
    }
  });

  it('retries a 429 without a readable Retry-After after back-off, and says it is retryable (the spec: every 429 is)', async () => {
    const headers: Record<string, string>[] = [
      {},
      { 'retry-after': 'soon' },
      { 'retry-after': '-1' },
    ];
    for (const header of headers) {
      const once = answering(() => gatewayError(429, 'client_concurrency_exceeded', header), ok);
      expect((await translate(client(once.fetch))).text).toBe('ok');
      expect(once.sent.count).toBe(2);
      const always = answering(() => gatewayError(429, 'model_busy', header));
      const error = await translate(client(always.fetch)).catch((e: unknown) => e);
      expect(always.sent.count).toBe(3);
      expect(error).toMatchObject({ status: 429, isRetryable: true });
      expect((error as { retryAfterMs?: number }).retryAfterMs).toBeUndefined();
    }
  });

  it('a back-off longer than what is left of the deadline is cut by it: timeout, the failure as its cause', async () => {
    // Back-off is jittered: answering "timeout" or "503" by whether the jitter fit would give one
    // situation two outcomes. The deadline ends the wait, and the 503 is kept.
    const { fetch, sent } = answering(() => gatewayError(503, 'provider_unavailable'));
    const slow = createGatewayClient({
      baseURL: 'https://retry-policy.test/v1',
      apiKey: 'k',
      fetch,
      retryBaseDelayMs: 60_000,
      timeoutMs: 200,
    });
    const error = await translate(slow).catch((e: unknown) => e);
    expect(sent.count).toBe(1);
    expect(error).toMatchObject({ code: 'timeout', isRetryable: false });
    expect((error as Error).message).toMatch(/deadline of 200 ms \(waiting to retry after: /);
    expect((error as Error).cause).toMatchObject({ status: 503, code: 'provider_unavailable' });
  });

  it('with maxRetries: 0 sends once and leaves an honest isRetryable with the response headers', async () => {
    const busy = answering(() => gatewayError(429, 'model_busy', { 'retry-after': '2' }));
    const error = await translate(client(busy.fetch), 0).catch((e: unknown) => e);
    expect(busy.sent.count).toBe(1);
    expect(error).toMatchObject({ isRetryable: true, retryAfterMs: 2000 });
    expect((error as { responseHeaders?: Record<string, string> }).responseHeaders).toMatchObject({
      'retry-after': '2',
    });
    const refused = answering(() => gatewayError(400, 'invalid_request_error'));
    expect(await translate(client(refused.fetch), 0).catch((e: unknown) => e)).toMatchObject({
      isRetryable: false,
    });
    const down: typeof globalThis.fetch = async () => {
      throw new TypeError('fetch failed');
    };
    expect(await translate(client(down), 0).catch((e: unknown) => e)).toMatchObject({
      code: 'network_error',
      isRetryable: true,
    });
  });

  it('per-call maxRetries bounds the attempts in both directions', async () => {
    const failing = answering(() => gatewayError(503, 'provider_unavailable'));
    await translate(client(failing.fetch, 0), 4).catch(() => {});
    expect(failing.sent.count).toBe(5);
  });
});

describe('bounded reads (a body never grows memory past maxResponseBytes)', () => {
  const CHUNK = 64 * 1024;
  /** A response whose body produces 64 KiB chunks for ever (or `chunks` of them); counts pulls. */
  function endless(status = 200, headers: Record<string, string> = {}, chunks = Infinity) {
    const pulled = { count: 0 };
    const fetch: typeof globalThis.fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled.count >= chunks) return controller.close();
            pulled.count++;
            controller.enqueue(new Uint8Array(CHUNK).fill(120));
          },
        }),
        { status, headers: { 'content-type': 'application/json', ...headers } },
      );
    return { fetch, pulled };
  }
  const make = (fetch: typeof globalThis.fetch, extra: Record<string, number> = {}) =>
    createGatewayClient({
      baseURL: 'https://bounded.test/v1',
      apiKey: 'k',
      fetch,
      maxRetries: 0,
      ...extra,
    });
  const translate = (client: ReturnType<typeof make>, options = {}) =>
    client.translate({ input: 'hi', target_language: 'uk' }, options).catch((e: unknown) => e);

  it('an endless body stops at maxResponseBytes with response_too_large naming the limit', async () => {
    const { fetch, pulled } = endless();
    const error = await translate(make(fetch, { maxResponseBytes: 4 * CHUNK }));
    expect(error).toMatchObject({ code: 'response_too_large', isRetryable: false });
    expect((error as Error).message).toContain(`maxResponseBytes (${4 * CHUNK} bytes)`);
    expect(pulled.count).toBeLessThanOrEqual(6);
  });

  it('a Content-Length above the limit fails before the body is read', async () => {
    const { fetch, pulled } = endless(200, { 'content-length': String(10 * 1024 ** 3) });
    const error = await translate(make(fetch));
    expect(error).toMatchObject({ code: 'response_too_large' });
    expect((error as Error).message).toContain('Content-Length 10737418240');
    expect(pulled.count).toBeLessThanOrEqual(1);
  });

  it('an endless error body keeps a bounded prefix and says so', async () => {
    const { fetch, pulled } = endless(500, { 'content-type': 'text/plain' });
    const error = (await translate(make(fetch, { maxErrorBodyBytes: CHUNK }))) as {
      code: string;
      body: string;
      message: string;
    };
    expect(error.code).toBe('upstream_error');
    expect(error.body.length).toBeLessThan(CHUNK + 200);
    expect(error.body).toContain(`error body cut after ${CHUNK} bytes (maxErrorBodyBytes)`);
    expect(error.message.length).toBeLessThan(10_000);
    expect(pulled.count).toBeLessThanOrEqual(3);
  });

  it('validates per-call timeoutMs and signal, clamps huge deadlines', async () => {
    const ok: typeof globalThis.fetch = async () =>
      new Response('{"text":"ok","target_language":"uk"}', {
        headers: { 'content-type': 'application/json' },
      });
    const client = make(ok);
    for (const timeoutMs of [Number.NaN, '100', 0, -1, Number.POSITIVE_INFINITY]) {
      expect(await translate(client, { timeoutMs })).toMatchObject({
        code: 'invalid_request_error',
        field: 'timeoutMs',
      });
    }
    expect(await translate(client, { signal: {} })).toMatchObject({
      code: 'invalid_request_error',
      field: 'signal',
    });
    expect(await translate(client, { timeoutMs: 2 ** 40 })).toMatchObject({ text: 'ok' });
    expect(await translate(make(ok, { timeoutMs: 2 ** 40 }))).toMatchObject({ text: 'ok' });
  });

  it('the baseURL configuration error does not quote the value', () => {
    const pasted = 'sk-live-0123456789abcdef';
    let error: unknown;
    try {
      createGatewayClient({ baseURL: pasted, apiKey: 'k' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'configuration_error', field: 'baseURL' });
    expect(JSON.stringify(error)).not.toContain(pasted);
    expect(String((error as Error).message)).not.toContain(pasted);
    expect(String((error as Error).cause)).not.toContain(pasted);
  });
});

describe('an endless stream nobody reads (must not hold memory or a slot)', () => {
  it('is stopped once its unread bytes pass maxResponseBytes: slot released, response_too_large on read', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const event = new TextEncoder().encode(
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'x'.repeat(4000) } }] })}\n\n`.repeat(
        16,
      ),
    );
    const fetch: typeof globalThis.fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(event) }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const client = createGatewayClient({
      baseURL: 'https://endless-stream.test/v1',
      apiKey: 'k',
      // (Core gates each chat call against GET /models: the stub lists the model.)
      fetch: withCatalog(fetch, ['community/general']),
      maxResponseBytes: 4 * 1024 * 1024,
    });
    const stream = await client.chatStream({
      model: 'community/general',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.waitFor(() => expect(client.budget.active).toBe(0), { timeout: 10_000 });
    await expect(stream.result()).rejects.toMatchObject({ code: 'response_too_large' });
  });
});

describe('an endless stream that is read (its assembled answer stays bounded)', () => {
  it('ends with response_too_large once it passes maxResponseBytes in total, so the assembled answer stays bounded', async () => {
    const event = new TextEncoder().encode(
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'x'.repeat(4000) } }] })}\n\n`,
    );
    const fetch: typeof globalThis.fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(event) }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    // Above the read-ahead's 1 MiB pause, so the total is what stops it, not the unread bytes.
    const limit = 4 * 1024 * 1024;
    const client = createGatewayClient({
      baseURL: 'https://endless-read-stream.test/v1',
      apiKey: 'k',
      // (Core gates each chat call against GET /models: the stub lists the model.)
      fetch: withCatalog(fetch, ['community/general']),
      maxResponseBytes: limit,
    });
    const stream = await client.chatStream({
      model: 'community/general',
      messages: [{ role: 'user', content: 'hi' }],
    });
    let text = 0;
    const error = await (async () => {
      for await (const part of stream) if (part.type === 'text-delta') text += part.delta.length;
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'response_too_large', isRetryable: false });
    expect((error as Error).message).toContain(`maxResponseBytes (${limit} bytes) in total`);
    expect(text).toBeLessThanOrEqual(limit);
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await client.budget.whenIdle();
    expect(client.budget.active).toBe(0);
  });
});
