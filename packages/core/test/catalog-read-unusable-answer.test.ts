import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatewayClient, type GatewayClient } from '../src';
import { failedReadPath } from '../src/internal';
import {
  busyIn200,
  busyIn200Read,
  caught,
  clientOn,
  errorObjectText,
  hi,
  timedOutAt,
} from './helpers';

// docs/gateway-protocol.md §3.1, §3.2, §5.3, §10.3: the catalog's reads (`GET /models`,
// `GET /capabilities`) read an unusable 200 by the rule chat and the services read theirs by
// (http/unusable-answer.ts): the gateway's error object is that error, with its Retry-After; any
// other body is `invalid_response` whose raw body is kept within `maxErrorBodyBytes`. Every
// failure of a catalog read is marked with its path (catalog/failed-read.ts), the caller's own
// deadline or abort reached while it waits on a shared read included. The emulator serves the
// rest; a hostile fetch answers the catalog's reads with the bytes.
const MODEL = 'community/general';
const json = { 'content-type': 'application/json' };
const KEPT = 64 * 1024;
const cutNote = (limit: number) =>
  `…\n[infergate: error body cut after ${limit} bytes (maxErrorBodyBytes)]`;

/** A client whose catalog reads (`GET`s) are answered by `answer`; every other request by the emulator. */
async function catalogAnsweredBy(answer: () => Response): Promise<GatewayClient> {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const fetch: typeof globalThis.fetch = async (input, init) =>
    (init?.method ?? 'GET') === 'GET' ? answer() : gatewayFetch(input, init);
  // (No retries: how the answer is read is the subject, not the backoff before a retry.)
  return createGatewayClient({ ...gateway.connection, maxRetries: 0, fetch });
}

const reads = [
  { name: 'models()', path: '/models', read: (c: GatewayClient) => c.models() },
  { name: 'services()', path: '/capabilities', read: (c: GatewayClient) => c.services() },
  { name: 'chat()’s gate', path: '/models', read: (c: GatewayClient) => c.chat(hi(MODEL)) },
];

afterEach(() => {
  vi.useRealTimers();
});

describe('a catalog read answered 200 with the gateway error object', () => {
  it.each(reads)('$name: is that error, with its Retry-After, marked', async ({ path, read }) => {
    const body = errorObjectText('model_busy', 'catalog busy');
    const client = await catalogAnsweredBy(() => busyIn200('catalog busy'));
    const error = await caught(() => read(client));
    expect(error).toMatchObject({ ...busyIn200Read('catalog busy'), body, data: JSON.parse(body) });
    expect(failedReadPath(error)).toBe(path);
  });
});

describe('a 4 MiB catalog answer that is no list', () => {
  const garbage = 'x'.repeat(4 * 1024 * 1024);
  it.each([
    {
      name: 'not JSON',
      answer: () => new Response(garbage, { headers: { 'content-type': 'text/plain' } }),
      start: garbage.slice(0, KEPT),
    },
    {
      name: 'JSON of another shape',
      answer: () =>
        new Response(JSON.stringify({ object: 'list', data: garbage }), { headers: json }),
      start: `{"object":"list","data":"${garbage}`.slice(0, KEPT),
    },
  ])('$name: invalid_response, its body kept cut, marked', async ({ answer, start }) => {
    for (const { path, read } of reads) {
      const client = await catalogAnsweredBy(answer);
      const error = await caught(() => read(client));
      expect(error.code).toBe('invalid_response');
      expect(error.body).toBe(`${start}${cutNote(KEPT)}`);
      expect(error.data).toBeUndefined();
      expect(JSON.stringify(error).length).toBeLessThan(KEPT + 8 * 1024);
      expect(failedReadPath(error)).toBe(path);
    }
  });
});

describe('the caller’s end while it waits on a shared catalog read', () => {
  it.each([
    {
      endpoint: 'models' as const,
      read: (c: GatewayClient, signal: AbortSignal) => c.models({ signal }),
    },
    {
      endpoint: 'capabilities' as const,
      read: (c: GatewayClient, signal: AbortSignal) => c.services({ signal }),
    },
  ])('an abort during GET /$endpoint is marked with it', async ({ endpoint, read }) => {
    const gateway = await emulate();
    const release = gateway.emulator.holdAnswers(endpoint);
    const client = clientOn(gateway);
    const controller = new AbortController();
    const failed = caught(() => read(client, controller.signal));
    await gateway.untilRequests(1, { endpoint });
    controller.abort();
    const error = await failed;
    release();
    expect(error.code).toBe('aborted');
    expect(failedReadPath(error)).toBe(`/${endpoint}`);
  });

  it('a deadline reached during the read is marked with its path', async () => {
    // The deadline is the subject: fake timers move it (core reads performance.now()).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const gateway = await emulate();
    gateway.emulator.injectFault({ fault: 'slow_headers', endpoint: 'models', ms: 20_000 });
    const client = clientOn(gateway);
    const error = await timedOutAt(1_000, () => client.models({ timeoutMs: 1_000 }));
    expect(failedReadPath(error)).toBe('/models');
    // (Left to end: the shared read's own deadline would otherwise keep the test's timers busy.)
    await vi.advanceTimersByTimeAsync(60_000);
  });
});
