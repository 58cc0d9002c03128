import { createConnection } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmulator } from '../src/index';
import { emulate, until } from '../src/testing/index';
import { pollUntil, startRedis } from '../src/testing/redis';

// The second look at the kit (rv-2emu): a restarted test Redis starts empty even after it wrote
// an RDB file, `pollUntil`'s safety net runs on the real clock as `until`'s does, a wait with no
// limit (`Infinity`) waits, and the `cors` option takes an origin however it is written.

/** One inline command's reply. */
const ask = (port: number, command: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('data', (data) => {
      socket.end();
      resolve(data.toString());
    });
    socket.once('error', reject);
    socket.write(`${command}\r\n`);
  });

afterEach(() => {
  vi.useRealTimers();
});

describe('the test kit', () => {
  it('a restarted Redis starts empty, though the last one wrote its keys to an RDB file', async () => {
    const redis = await startRedis();
    try {
      expect(await ask(redis.port, 'SET left-by-an-earlier-test 1')).toBe('+OK\r\n');
      // What a replica's full sync also does: the keys written to the server's RDB file.
      expect(await ask(redis.port, 'SAVE')).toBe('+OK\r\n');
      await redis.restart();
      expect(await ask(redis.port, 'DBSIZE')).toBe(':0\r\n');
    } finally {
      await redis.stop();
    }
  });

  it('pollUntil gives up on the real clock while a test fakes timers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    await expect(pollUntil(() => false, 'what never comes', 50)).rejects.toThrow(
      /still waiting for what never comes after 50 ms/,
    );
  });

  it('a wait with no limit (timeoutMs: Infinity) waits for its event', async () => {
    // The request's answer comes after a latency: a wait that gave up at once (its timer cut to
    // 1 ms) has failed by then.
    const gateway = await emulate({ scenario: { latencyMs: 30 } });
    const key = gateway.connection.apiKey;
    // Answered: the key's slot was taken, and is back.
    const arrived = until(
      gateway.emulator,
      (counters) => counters.maxInflight[key] === 1 && (counters.inflight[key] ?? 0) === 0,
      { timeoutMs: Number.POSITIVE_INFINITY, what: 'a chat answered' },
    );
    const { baseURL, fetch: gatewayFetch } = gateway.connection;
    await gatewayFetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'community/general',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    await expect(arrived).resolves.toBeUndefined();
  });

  it.each([
    ['a host in capitals', 'http://LOCALHOST:5173', 'http://localhost:5173'],
    ['a default port', 'http://localhost:80', 'http://localhost'],
    ['an IPv6 address written long', 'http://[0:0:0:0:0:0:0:1]:5173', 'http://[::1]:5173'],
  ])('the cors option takes %s as the origin a browser sends', async (_, given, sent) => {
    const server = await startEmulator({ cors: [given] });
    try {
      const preflight = await fetch(`${server.url}/models`, {
        method: 'OPTIONS',
        headers: { origin: sent, 'access-control-request-method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(sent);
    } finally {
      await server.close();
    }
  });

  it("emulate() checks cors in every mode, not only 'http'", async () => {
    await expect(emulate({ as: 'fetch', cors: ['localhost:5173'] })).rejects.toThrow(
      /not an origin/,
    );
  });
});
