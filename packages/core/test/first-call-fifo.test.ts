// A call that loads part of core on first use (the events, the stall timers) asks for its slot
// before loading, so it keeps its place in the key's FIFO queue (issue 38 point 4). This file runs
// isolated (vitest.config.ts): each part is loaded here for the first time.
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient, type GatewayClientOptions } from '../src/index';

function setUp(latencyMs = 20): {
  options: GatewayClientOptions;
  arrived: string[];
  say: (client: GatewayClient, content: string, firstChunkTimeoutMs?: number) => Promise<unknown>;
} {
  const emulator = createEmulator({ latencyMs });
  const arrived: string[] = [];
  const options = {
    baseURL: 'https://first-call-fifo.example.com/v1',
    // Above the key's 4: calls queue at the key's budget, where FIFO across clients is kept.
    maxConcurrency: 16,
    apiKey: DEFAULT_KEYS.full,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as { messages?: { content: string }[] };
      arrived.push(
        body.messages?.[0]?.content ??
          new URL(input instanceof Request ? input.url : String(input)).pathname,
      );
      return emulator.fetch(input, init);
    },
  };
  const say = (client: GatewayClient, content: string, firstChunkTimeoutMs?: number) =>
    client.chat(
      { model: 'community/general', messages: [{ role: 'user', content }] },
      firstChunkTimeoutMs === undefined ? {} : { firstChunkTimeoutMs },
    );
  return { options, arrived, say };
}

describe('a first call that loads code on first use keeps its FIFO place on the key', () => {
  it('while the events load (a client with onEvent)', async () => {
    const { options, arrived, say } = setUp();
    const plain = createGatewayClient(options);
    await say(plain, 'warm-up');
    arrived.length = 0;
    // The key's 4 slots are taken: every call below queues, and is served in the order made.
    const blockers = [1, 2, 3, 4].map((i) => say(plain, `block ${i}`));
    const observed = createGatewayClient({ ...options, onEvent: () => {} });
    const calls = [say(observed, 'observed'), ...[1, 2, 3, 4, 5].map((i) => say(plain, `${i}`))];
    await Promise.all([...blockers, ...calls]);
    expect(arrived.slice(4)).toEqual(['observed', '1', '2', '3', '4', '5']);
  });

  it('while the stall timers load (a call with firstChunkTimeoutMs)', async () => {
    const { options, arrived, say } = setUp();
    const client = createGatewayClient(options);
    await say(client, 'warm-up');
    arrived.length = 0;
    const blockers = [1, 2, 3, 4].map((i) => say(client, `block ${i}`));
    const calls = [
      say(client, 'watched', 30_000),
      ...[1, 2, 3, 4, 5].map((i) => say(client, `${i}`)),
    ];
    await Promise.all([...blockers, ...calls]);
    expect(arrived.slice(4)).toEqual(['watched', '1', '2', '3', '4', '5']);
  });

  it('while the service calls load (a first translate)', async () => {
    // Answers take 200 ms: the slot a call holds while its code loads is granted in its turn.
    const { options, arrived, say } = setUp(200);
    const client = createGatewayClient(options);
    await say(client, 'warm-up');
    arrived.length = 0;
    const blockers = [1, 2, 3, 4].map((i) => say(client, `block ${i}`));
    const calls = [
      client.translate({ input: 'hello', target_language: 'uk' }),
      ...[1, 2, 3, 4, 5].map((i) => say(client, `${i}`)),
    ];
    await Promise.all([...blockers, ...calls]);
    // The translation got the first slot freed (sent once its code loaded, after calls 1–3 that
    // got the next three), ahead of calls 4 and 5 which waited for the next ones.
    const queued = arrived.slice(4);
    expect(queued.filter((name) => name !== '/v1/translations')).toEqual(['1', '2', '3', '4', '5']);
    expect(queued.indexOf('/v1/translations')).toBeLessThan(queued.indexOf('4'));
  });

  it('gives the slot back when the service call is refused before sending', async () => {
    const { options } = setUp();
    const client = createGatewayClient({ ...options, baseURL: 'https://refused.example.com/v1' });
    await expect(
      client.translate({ input: '', target_language: 'uk' } as never),
    ).rejects.toMatchObject({ code: 'invalid_request_error' });
    expect(client.budget.active).toBe(0);
  });
});
