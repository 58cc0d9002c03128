import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEmulator, DEFAULT_KEYS, type Emulator, type ScenarioInput } from '../src/index';
import { gatewayHandlers } from '../src/msw';
import { drivenClock, untilIdle, untilInflight } from '../src/testing/index';
import { errorBodyOf } from './helpers';

// Through msw the handler used to read the whole upload before the emulator saw the request: a
// stalled upload never met `requestTimeoutMs` (its key's slot was never even taken), and an
// upload over the size cap was held whole before it was refused. Fetch and HTTP modes stream it.

const key = DEFAULT_KEYS.full;
const mswServer = setupServer();
const clock = drivenClock(vi);

beforeAll(() => mswServer.listen({ onUnhandledFrame: 'error' }));
afterAll(() => mswServer.close());
afterEach(() => {
  vi.useRealTimers();
  mswServer.resetHandlers();
});

/** A fresh emulator that msw sends `https://gateway.test/v1` to. */
function served(scenario: ScenarioInput): Emulator {
  const emulator = createEmulator(scenario);
  mswServer.use(...gatewayHandlers(emulator));
  return emulator;
}

/** Sends `body` (a stream) as a chat request through msw. */
function post(body: ReadableStream<Uint8Array>, withKey = true) {
  return fetch('https://gateway.test/v1/chat/completions', {
    method: 'POST',
    headers: {
      ...(withKey ? { authorization: `Bearer ${key}` } : {}),
      'content-type': 'application/json',
    },
    body,
    duplex: 'half',
  } as RequestInit);
}

/** A body that sends its first bytes, then nothing. */
function stalledBody() {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"model":"community/general",'));
    },
  });
}

describe('gatewayHandlers forward the upload as a stream', () => {
  it('a stalled upload is answered 504 request_timeout when requestTimeoutMs passes, its slot freed', async () => {
    const emulator = served({ requestTimeoutMs: 1000, latencyMs: 0 });
    clock.drive();
    const answer = post(stalledBody());
    await untilInflight(emulator, 1);
    const response = await clock.settledAfter(1000, answer);
    expect(await errorBodyOf(response)).toMatchObject({ status: 504, code: 'request_timeout' });
    await untilIdle(emulator);
  });

  it('a stalled upload without a key is refused 401 at once, its body left unread', async () => {
    served({ latencyMs: 0 });
    const response = await post(stalledBody(), false);
    expect(response.status).toBe(401);
  });

  it('an upload over the size cap without Content-Length is refused 400 before it is all sent', async () => {
    const emulator = served({ latencyMs: 0 });
    const MiB = 1024 * 1024;
    const total = 64 * MiB;
    let produced = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (produced >= total) controller.close();
          else {
            produced += MiB;
            controller.enqueue(new Uint8Array(MiB));
          }
        },
      },
      { highWaterMark: 0 },
    );
    const response = await post(body);
    expect(await errorBodyOf(response)).toMatchObject({
      status: 400,
      code: 'invalid_request_error',
    });
    expect(produced).toBeLessThan(total);
    await untilIdle(emulator);
  });
});
