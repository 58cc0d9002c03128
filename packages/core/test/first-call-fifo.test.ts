// A call that loads part of core on first use (the events, the stall timers, the service calls)
// asks for its slot before loading, so it keeps its place in the key's FIFO queue (issue 38 point
// 4). This file runs isolated (vitest.config.ts): each part is loaded here for the first time. The
// tests record the order in which calls ask the key's budget for a slot (the budget is FIFO), not
// when requests arrive: that order does not depend on how fast the machine loads code.
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import {
  type ChatCallOptions,
  createGatewayClient,
  createInProcessBudget,
  type GatewayClient,
  type GatewayClientOptions,
  type KeyBudget,
} from '../src/index';

/** The budget `inner`, noting `label` each time a call of this client asks it for a slot. */
function labelled(inner: KeyBudget, label: string, asked: string[]): KeyBudget {
  return {
    acquire: (request) => {
      asked.push(label);
      return inner.acquire(request);
    },
  };
}

function setUp() {
  const emulator = createEmulator({ latencyMs: 20 });
  const shared = createInProcessBudget();
  const asked: string[] = [];
  const options = (label: string, extra: Partial<GatewayClientOptions> = {}) =>
    createGatewayClient({
      baseURL: 'https://first-call-fifo.example.com/v1',
      apiKey: DEFAULT_KEYS.full,
      fetch: emulator.fetch,
      budget: labelled(shared, label, asked),
      // Above the key's 4: every call queues at the key's budget, where the order is kept.
      maxConcurrency: 16,
      ...extra,
    });
  const say = (client: GatewayClient, options: ChatCallOptions = {}) =>
    client.chat(
      { model: 'community/general', messages: [{ role: 'user', content: 'hi' }] },
      options,
    );
  return { asked, options, say };
}

/**
 * Four calls that take the key's 4 slots, the fresh call, then five more: in that order. Each
 * client's catalog is read first (core gates a chat call against GET /models: the first call of a
 * client would read it before asking for its slot), and the labels read after it.
 */
async function queueBehindBlockers(
  say: (client: GatewayClient) => Promise<unknown>,
  plain: GatewayClient,
  fresh: () => Promise<unknown>,
  warm: { asked: string[]; clients: GatewayClient[] },
): Promise<void> {
  for (const client of warm.clients) await client.models();
  warm.asked.length = 0;
  const blockers = [1, 2, 3, 4].map(() => say(plain));
  const calls = [fresh(), ...[1, 2, 3, 4, 5].map(() => say(plain))];
  await Promise.all([...blockers, ...calls]);
}

const IN_ORDER = [
  'plain',
  'plain',
  'plain',
  'plain',
  'fresh',
  'plain',
  'plain',
  'plain',
  'plain',
  'plain',
];

describe('a first call that loads code on first use keeps its FIFO place on the key', () => {
  it('while the events load (a client with onEvent)', async () => {
    const { asked, options, say } = setUp();
    const plain = options('plain');
    const fresh = options('fresh', { onEvent: () => {} });
    // The fresh call gives its capabilities (no catalog read): its own request loads the events.
    await queueBehindBlockers(say, plain, () => say(fresh, { capabilities: ['chat'] }), {
      asked,
      clients: [plain],
    });
    expect(asked).toEqual(IN_ORDER);
  });

  it('while the stall timers load (a call with firstChunkTimeoutMs)', async () => {
    const { asked, options, say } = setUp();
    const plain = options('plain');
    const fresh = options('fresh');
    await queueBehindBlockers(say, plain, () => say(fresh, { firstChunkTimeoutMs: 30_000 }), {
      asked,
      clients: [plain, fresh],
    });
    expect(asked).toEqual(IN_ORDER);
  });

  it('while the service calls load (a first translate)', async () => {
    const { asked, options, say } = setUp();
    const plain = options('plain');
    const fresh = options('fresh');
    await queueBehindBlockers(
      say,
      plain,
      () => fresh.translate({ input: 'hello', target_language: 'uk' }),
      { asked, clients: [plain] },
    );
    expect(asked).toEqual(IN_ORDER);
  });

  it('gives the slot back when the service call is refused before sending', async () => {
    const { options } = setUp();
    const client = options('fresh');
    await expect(
      client.translate({ input: '', target_language: 'uk' } as never),
    ).rejects.toMatchObject({ code: 'invalid_request_error' });
    expect(client.budget.active).toBe(0);
  });
});
