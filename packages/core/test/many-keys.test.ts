import { createEmulator } from '@infergate/emulator';
import { caught } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultBudget } from '../src/budget/in-process-budget';
import type { GatewayClient } from '../src/index';
import { createGatewayClient, isGatewayError } from '../src/index';
import { DEFAULT_KEYS } from './helpers';

// A many-tenant server makes a client per tenant key. Redaction must not cost more per error, nor
// creating a client more per client, as tenants come: the work is counted here as looks at a
// live client's redactor (each a `WeakRef#deref`), not timed.
const TENANTS = 10_000;
const realDeref = WeakRef.prototype.deref;
let derefs = 0;

function countDerefs(): void {
  derefs = 0;
  WeakRef.prototype.deref = function deref(this: WeakRef<object>) {
    derefs++;
    return realDeref.call(this);
  };
}

afterEach(() => {
  WeakRef.prototype.deref = realDeref;
});

const keyOf = (tenant: number) => `sk-tenant-${tenant}-${'q7Zp'.repeat(6)}`;

function tenantClient(tenant: number): GatewayClient {
  const key = keyOf(tenant);
  return createGatewayClient({
    baseURL: 'https://many-keys.test/v1',
    apiKey: key,
    maxRetries: 0,
    // The gateway echoes the key it was given, raw and URL-encoded, in body and header.
    fetch: async () =>
      new Response(
        JSON.stringify({
          error: {
            code: 'invalid_api_key',
            message: `bad key ${key} (${encodeURIComponent(key)})`,
          },
        }),
        { status: 401, headers: { 'content-type': 'application/json', 'x-echo': key } },
      ),
  });
}

describe(`${TENANTS} live tenant keys`, () => {
  it('creating a client per key does constant work per client (no scan of the others)', () => {
    countDerefs();
    const clients = Array.from({ length: TENANTS }, (_, tenant) => tenantClient(tenant));
    // At most one look per client (at the few keys filed under the same hash), never one per
    // live key: 10,000 clients by scanning would be 50 million looks.
    expect(derefs).toBeLessThanOrEqual(TENANTS);
    expect(clients).toHaveLength(TENANTS);
  });

  it("an error is redacted of its own client's key at a cost independent of the other keys", async () => {
    const clients = Array.from({ length: TENANTS }, (_, tenant) => tenantClient(tenant));
    countDerefs();
    const error = await caught(
      () => clients[4242]!.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      isGatewayError,
    );
    const looks = derefs;
    expect(error.code).toBe('invalid_api_key');
    const everything = `${error.message} ${error.body} ${JSON.stringify(error)}`;
    expect(everything).not.toContain(keyOf(4242));
    expect(everything).not.toContain(encodeURIComponent(keyOf(4242)));
    expect(error.responseHeaders?.['x-echo']).toBe('[redacted]');
    // A handful of looks at its own redactor; redacting against every live key would be ≥ 10,000
    // per string the error carries.
    expect(looks).toBeLessThan(50);
    expect(clients).toHaveLength(TENANTS);
  });
});

describe('the default budget with a client per request, each on its tenant key', () => {
  const models = () =>
    new Response('{"object":"list","data":[]}', {
      headers: { 'content-type': 'application/json' },
    });

  it('forgets each key once its calls are done: it keeps only the keys in use', async () => {
    const budget = defaultBudget();
    const before = budget.size;
    let inUse = 0;
    const calls = Array.from({ length: 2_000 }, (_, tenant) =>
      createGatewayClient({
        baseURL: 'https://budget-tenants.test/v1',
        apiKey: keyOf(tenant),
        fetch: async () => {
          inUse = Math.max(inUse, budget.size - before);
          return models();
        },
      }).models(),
    );
    await Promise.all(calls);
    // While the calls ran, their keys were counted; once done, none is kept.
    expect(inUse).toBeGreaterThan(0);
    expect(budget.size).toBe(before);
  });

  it('a key that comes back is served first come, first served, 4 at a time', async () => {
    const emulator = createEmulator({ latencyMs: 10 });
    const arrived: string[] = [];
    const client = () =>
      createGatewayClient({
        baseURL: 'https://budget-comes-back.test/v1',
        apiKey: DEFAULT_KEYS.full,
        fetch: async (input, init) => {
          arrived.push(JSON.parse(String(init?.body)).messages[0].content);
          return emulator.fetch(input, init);
        },
      });
    // (Capabilities given: a client per request would otherwise read the catalog before each
    // call, and those reads would queue between the calls.)
    const say = (content: string) =>
      client().chat(
        { model: 'community/general', messages: [{ role: 'user', content }] },
        { capabilities: ['chat'] },
      );
    await say('first visit');
    const before = defaultBudget().size;
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    await Promise.all(names.map(say));
    expect(arrived.slice(1)).toEqual(names);
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBe(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
    expect(defaultBudget().size).toBe(before);
  });
});
