import { describe, expect, it } from 'vitest';
import { Catalog } from '../catalog/catalog';
import type { Transport } from '../http/transport';
import type { GatewayModel } from '../protocol/wire-types';
import { countModelInflight, watchCatalogReads } from './model-inflight';
import { orderListedModels, runningOn, tierOf } from './order-listed-models';

const model = (id: string, extra: Partial<GatewayModel> = {}): GatewayModel => ({
  id,
  object: 'model',
  owned_by: 'service-community',
  kind: 'chat',
  capabilities: ['chat'],
  ...extra,
});

describe('tierOf', () => {
  it.each([
    ['no capacity reported: free', model('a'), 5, 0],
    ['below capacity', model('a', { capacity: 2 }), 1, 0],
    ['at capacity', model('a', { capacity: 2 }), 2, 1],
    ['no node', model('a', { available_nodes: 0, capacity: 2, inflight: 0 }), 0, 2],
    ['unlisted (an own model)', undefined, 0, 2],
  ] as const)('%s', (_name, entry, running, tier) => {
    expect(tierOf(entry, running)).toBe(tier);
  });
});

describe('orderListedModels', () => {
  it('puts free capacity first, then full, then offline, keeping the given order in each', () => {
    const entries = new Map<string, GatewayModel | undefined>([
      ['full', model('full', { capacity: 1, inflight: 1 })],
      ['off', model('off', { available_nodes: 0 })],
      ['free-1', model('free-1', { capacity: 4, inflight: 0 })],
      ['my/own', undefined],
      ['free-2', model('free-2')],
    ]);
    const order = orderListedModels(
      ['full', 'off', 'free-1', 'my/own', 'free-2'],
      (id) => entries.get(id),
      (id) => entries.get(id)?.inflight ?? 0,
    );
    expect(order).toEqual(['free-1', 'free-2', 'full', 'off', 'my/own']);
  });

  it('tries a model failing often after the others of its group, still before a full one', () => {
    const entries = new Map([
      ['often', model('often', { capacity: 4 })],
      ['steady', model('steady', { capacity: 4 })],
      ['full', model('full', { capacity: 1, inflight: 1 })],
    ]);
    const order = orderListedModels(
      ['often', 'full', 'steady'],
      (id) => entries.get(id),
      (id) => entries.get(id)?.inflight ?? 0,
      (id) => id === 'often',
    );
    expect(order).toEqual(['steady', 'often', 'full']);
  });

  it('keeps the first model first whenever it has free capacity: no load balancing', () => {
    const entries = new Map([
      ['first', model('first', { capacity: 8 })],
      ['second', model('second', { capacity: 8 })],
    ]);
    const order = (running: Record<string, number>) =>
      orderListedModels(
        ['first', 'second'],
        (id) => entries.get(id),
        (id) => running[id] ?? 0,
      );
    expect(order({ first: 7, second: 0 })).toEqual(['first', 'second']);
    expect(order({ first: 8, second: 0 })).toEqual(['second', 'first']);
  });
});

describe("a model's others in flight (the catalog's inflight less our own requests)", () => {
  it('subtracts our requests a read may have counted — in flight when sent, or sent before its answer — on every list read', async () => {
    const budgetId = 'catalog-others-test';
    const ours: (() => void)[] = [];
    const sendOurs = () => ours.push(countModelInflight(budgetId, 'pool/m'));
    let duringRead = () => {};
    let inflight = 3;
    const transport = {
      timeoutMs: 5_000,
      callEvents: async () => undefined,
      json: async () => {
        duringRead();
        return { status: 200, data: { data: [{ id: 'pool/m', capacity: 4, inflight }] } };
      },
    } as unknown as Transport;
    const catalog = new Catalog(transport, 60_000, { requestBound: false });
    watchCatalogReads(catalog, budgetId);
    sendOurs();
    duringRead = sendOurs;
    // The gateway counted 3: our two and one of someone else's.
    const first = await catalog.models();
    // Ours still run: theirs (1) and ours now (2).
    expect(runningOn(first, first[0], 'pool/m', budgetId)).toBe(3);
    for (const release of ours) release();
    expect(runningOn(first, first[0], 'pool/m', budgetId)).toBe(1);
    duringRead = () => {};
    inflight = 1;
    catalog.invalidate();
    const second = await catalog.models();
    expect(runningOn(second, second[0], 'pool/m', budgetId)).toBe(1);
    // A call planned on the first list still reads it right after the newer read.
    expect(runningOn(first, first[0], 'pool/m', budgetId)).toBe(1);
  });
});
