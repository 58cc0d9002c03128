import { Agent, request as httpRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  isLinearPattern,
  MAX_GENERATED_VALUE_CHARS,
  patternTester,
  valueForSchema,
} from '../src/chat/value-for-schema';
import { retryAfterSeconds } from '../src/gateway-error';
import { MAX_BODY_BYTES, type RunningEmulator, startEmulator } from '../src/index';
import { untilIdle, untilInflight } from '../src/testing/index';
import { openRawConnection, postHead } from './raw-connection';

let server: RunningEmulator;

beforeAll(async () => {
  server = await startEmulator({ port: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await server.close();
});

/**
 * Sends a POST whose body is produced lazily (`size` bytes of `x`, 64 KiB at a time, only as the
 * server reads), and reports the status and how many bytes the server let through.
 */
function lazyPost(
  path: string,
  size: number,
  headers: Record<string, string>,
): Promise<{ status?: number; written: number }> {
  return new Promise((resolve) => {
    const url = new URL(`${server.url}${path}`);
    let written = 0;
    let status: number | undefined;
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      status = res.statusCode;
      res.resume();
      res.on('end', () => resolve({ status, written }));
      res.on('error', () => resolve({ status, written }));
    });
    req.on('error', () => resolve({ status, written }));
    const piece = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      // Stops once the answer's headers arrived, as a client reading its answer does.
      while (written < size && status === undefined) {
        written += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

/** Fills the key's 4 slots with streams that stall for a minute; abort them to free the slots. */
async function holdEverySlot(): Promise<AbortController[]> {
  const holders = Array.from({ length: 4 }, () => new AbortController());
  for (const holder of holders) {
    void fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      signal: holder.signal,
      headers: {
        authorization: `Bearer ${server.apiKey}`,
        'content-type': 'application/json',
        'x-emulator-fault': 'stall_first_chunk; ms=60000',
      },
      body: JSON.stringify({
        model: 'community/general',
        stream: true,
        messages: [{ role: 'user', content: 'hold' }],
      }),
    }).catch(() => undefined);
  }
  await untilInflight(server.emulator, 4, { key: server.apiKey });
  return holders;
}

async function releaseSlots(holders: AbortController[]): Promise<void> {
  for (const holder of holders) holder.abort();
  await untilIdle(server.emulator, { key: server.apiKey });
}

/**
 * Moves the fake clock 100 ms at a time, with a turn for the sockets, until `done` settles; fails
 * after `boundMs` of fake time (not at the test's timeout, spinning).
 */
async function advancedUntil<T>(done: Promise<T>, boundMs = 60_000): Promise<T> {
  let settled = false;
  const watched = done.finally(() => {
    settled = true;
  });
  for (let moved = 0; !settled; moved += 100) {
    if (moved >= boundMs) throw new Error(`not settled after ${boundMs} ms of fake time`);
    await vi.advanceTimersByTimeAsync(100);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return watched;
}

describe('the emulator as a server', () => {
  it.each(['/v1/chat/completions', '/v1/no-such-path', '/elsewhere'])(
    'a keyless request to %s is 401',
    async (path) => {
      const response = await fetch(`${server.url.replace(/\/v1$/, '')}${path}`, {
        method: 'POST',
        body: '{}',
      });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'invalid_api_key',
      );
    },
  );

  it('a keyless 64 MiB upload is refused without being read', async () => {
    const result = await lazyPost('/chat/completions', 64 * 1024 * 1024, {
      'content-type': 'application/json',
    });
    expect(result.status).toBe(401);
    // The server stopped reading: far less than the body was ever accepted by the socket.
    expect(result.written).toBeLessThan(64 * 1024 * 1024);
  });

  it('a keep-alive connection stays sound after a refusal whose small body arrived', async () => {
    // The reliability matrix's retry after a 429 reset (ECONNRESET): the refused request's 5 s
    // linger closed the connection while the client's next request was using it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (headers: Record<string, string>) =>
      new Promise<{ status?: number; reused: boolean }>((resolve, reject) => {
        const req = httpRequest(
          `${server.url}/chat/completions`,
          { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode, reused: req.reusedSocket }));
          },
        );
        req.on('error', reject);
        req.end(
          JSON.stringify({
            model: 'community/general',
            messages: [{ role: 'user', content: 'hi' }],
          }),
        );
      });
    try {
      // The linger (5 s) and the slow answer (3 s) are the subject: fake timers move them (the
      // emulator's timers; the sockets stay real).
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      expect((await post({})).status).toBe(401); // keyless: refused before its body was read
      await vi.advanceTimersByTimeAsync(3_000);
      // In flight over the refused request's fifth second, on the same connection.
      const next = post({
        authorization: `Bearer ${server.apiKey}`,
        'x-emulator-fault': 'slow_headers; ms=3000',
      });
      await untilInflight(server.emulator, 1, { key: server.apiKey });
      await vi.advanceTimersByTimeAsync(3_000);
      expect(await next).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  }, 15_000);

  it('a keep-alive connection stays sound after a 429 answered before its body arrived', async () => {
    // Issue 45: in B9, healthy streams died "terminated" 5 s after a 429 on their connection. The
    // 429 came before the body was read; the unread body stream then re-paused the request at its
    // first chunk, so 'end' never came and the linger closed the connection under the next request.
    const holders = await holdEverySlot();
    const connection = await openRawConnection(server.url);
    // The linger (5 s) and the stall (6 s) are the subject: fake timers move the emulator's timers
    // and its streams' clock (Date.now); the sockets stay real, with a turn between steps.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const refusedBody = JSON.stringify({
        model: 'community/general',
        messages: [{ role: 'user', content: 'x'.repeat(1024 * 1024) }],
      });
      connection.write(
        postHead('/v1/chat/completions', refusedBody.length, {
          authorization: `Bearer ${server.apiKey}`,
        }),
      );
      const refused = await connection.until((text) =>
        text.includes('client_concurrency_exceeded'),
      );
      expect(refused).toMatch(/^HTTP\/1\.1 429 /);
      // The body comes after its answer, as fetch writes it after the headers.
      connection.write(refusedBody);
      await releaseSlots(holders);
      connection.clear();
      // The next request on the same connection streams past the refused request's fifth second.
      const streamed = JSON.stringify({
        model: 'community/general',
        stream: true,
        messages: [{ role: 'user', content: 'still here' }],
      });
      connection.write(
        postHead('/v1/chat/completions', streamed.length, {
          authorization: `Bearer ${server.apiKey}`,
          'x-emulator-fault': 'stall_stream; afterChunks=1; ms=6000',
        }) + streamed,
      );
      const answer = await advancedUntil(connection.until((text) => text.includes('data: [DONE]')));
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toContain('"content":"still "');
    } finally {
      connection.destroy();
      await releaseSlots(holders);
    }
  }, 30_000);

  it('a declared Content-Length above the cap is refused (400) at once', async () => {
    const result = await new Promise<number | undefined>((resolve) => {
      const req = httpRequest(
        `${server.url}/chat/completions`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${server.apiKey}`,
            'content-type': 'application/json',
            'content-length': String(10 * 1024 ** 3),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', () => resolve(undefined));
      req.write('{');
    });
    expect(result).toBe(400);
  });

  it('a chunked body over the cap is refused (400) once the cap is passed', async () => {
    const result = await lazyPost('/chat/completions', MAX_BODY_BYTES + 4 * 1024 * 1024, {
      authorization: `Bearer ${server.apiKey}`,
      'content-type': 'application/json',
    });
    expect(result.status).toBe(400);
  });
});

describe('generated output is bounded', () => {
  it('[[words:5000000]] answers at most 100 000 words', async () => {
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'community/general',
        messages: [{ role: 'user', content: '[[words:5000000]]' }],
      }),
    });
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    const words = body.choices[0]!.message.content.split(' ');
    expect(words).toHaveLength(100_000);
  });

  it('minLength: 1e8 and minItems: 1e8 are not honoured past the bounds', () => {
    const value = valueForSchema(
      {
        type: 'object',
        properties: {
          s: { type: 'string', minLength: 1e8 },
          a: { type: 'array', items: { type: 'integer' }, minItems: 1e8 },
        },
        required: ['s', 'a'],
      },
      {},
    ) as { s: string; a: unknown[] };
    expect(value.s.length).toBe(65_536);
    expect(value.a.length).toBe(1_000);
  });

  it('nested minItems (1000 × 1000 × 20) stay within the whole value’s 1 MiB budget', () => {
    const leaf = { type: 'string', minLength: 20 };
    const nested = (items: unknown, minItems: number) => ({ type: 'array', items, minItems });
    const value = valueForSchema(nested(nested(nested(leaf, 20), 1000), 1000)) as unknown[][][];
    const size = JSON.stringify(value).length;
    expect(size).toBeLessThanOrEqual(MAX_GENERATED_VALUE_CHARS + 1024);
    expect(size).toBeGreaterThan(MAX_GENERATED_VALUE_CHARS / 2); // filled up to the budget
    expect(value[0]![0]).toHaveLength(20); // the first parts are whole; the budget cuts the rest
    expect(value.length * value[0]!.length).toBeLessThan(1000 * 1000);
  });

  it('a self-referencing schema with many required properties stays within the budget', () => {
    const required = Array.from({ length: 10 }, (_, i) => `p${i}`);
    const node = {
      type: 'object',
      properties: Object.fromEntries(required.map((name) => [name, { $ref: '#' }])),
      required,
    };
    const size = JSON.stringify(valueForSchema(node)).length;
    expect(size).toBeLessThanOrEqual(MAX_GENERATED_VALUE_CHARS + 1024);
  });

  it('a large const repeated by minItems stops at the budget', () => {
    const big = 'x'.repeat(100_000);
    const value = valueForSchema({ type: 'array', items: { const: big }, minItems: 1000 });
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(MAX_GENERATED_VALUE_CHARS + 200_000);
  });

  it('a json_schema answer asking for 1000³ items is answered, bounded', async () => {
    const nested = (items: unknown) => ({ type: 'array', items, minItems: 1000 });
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'community/general',
        messages: [{ role: 'user', content: 'fill it' }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'big', schema: nested(nested(nested({ type: 'integer' }))) },
        },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    const content = body.choices[0]!.message.content;
    expect(content.length).toBeLessThanOrEqual(MAX_GENERATED_VALUE_CHARS + 1024);
    expect(Array.isArray(JSON.parse(content))).toBe(true);
  });

  it.each(['^(a+)+$', '(a|aa)*b', '^(\\w+\\s?)*$', '(x+x+)+y', '((ab)*)+c', '(a{1,}){2,}'])(
    'pattern %s (exponential backtracking) is only run on short strings',
    (pattern) => {
      expect(isLinearPattern(pattern)).toBe(false);
      expect(patternTester(pattern)!(`${'a'.repeat(5000)}!`)).toBe(false);
      const value = valueForSchema({ type: 'string', pattern }, { text: `${'a'.repeat(5000)}!` });
      expect(typeof value).toBe('string');
    },
  );

  it('a language-code pattern with a repeated group still gets a matching value', () => {
    const pattern = '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$';
    const value = valueForSchema({ type: 'string', pattern }, { text: 'translate this please' });
    expect(new RegExp(pattern).test(value as string)).toBe(true);
  });

  it.each(['^[a-z]+$', '^\\d{3}-\\d{4}$', '^(foo|bar)$', '^[A-Z]{2}(-[A-Z]{2})?$'])(
    'pattern %s is honoured',
    (pattern) => {
      expect(isLinearPattern(pattern)).toBe(true);
    },
  );
});

describe('Retry-After is always a small whole number of seconds', () => {
  it.each([
    [1e300, 300],
    [-1, 0],
    [0.2, 1],
    [Number.NaN, 1],
    [Number.POSITIVE_INFINITY, 1],
    [7, 7],
  ])('%s → %i', (asked, sent) => {
    expect(retryAfterSeconds(asked)).toBe(sent);
  });

  it('a fault header asking for 1e+300 sends 300', async () => {
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.apiKey}`,
        'content-type': 'application/json',
        'x-emulator-fault': 'rate_limit; retryAfter=1e300',
      },
      body: JSON.stringify({
        model: 'community/general',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('300');
  });
});
