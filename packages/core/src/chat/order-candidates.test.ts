import { describe, expect, it } from 'vitest';
import type { GatewayModel } from '../protocol/wire-types';
import { orderCandidates, tierOf } from './order-candidates';

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
    ['no capacity reported: room', model('a'), 0, 0],
    ['below capacity', model('a', { capacity: 2, inflight: 1 }), 0, 0],
    ['at capacity', model('a', { capacity: 2, inflight: 2 }), 0, 1],
    ['at capacity with our own calls', model('a', { capacity: 2, inflight: 1 }), 1, 1],
    ['no node', model('a', { available_nodes: 0, capacity: 2, inflight: 0 }), 0, 2],
    ['unlisted (an own model)', undefined, 0, 2],
  ] as const)('%s', (_name, entry, own, tier) => {
    expect(tierOf(entry, own)).toBe(tier);
  });
});

describe('orderCandidates', () => {
  it('puts room first, then full, then offline, keeping the given order in each', () => {
    const entries = new Map<string, GatewayModel | undefined>([
      ['full', model('full', { capacity: 1, inflight: 1 })],
      ['off', model('off', { available_nodes: 0 })],
      ['room-1', model('room-1', { capacity: 4, inflight: 0 })],
      ['my/own', undefined],
      ['room-2', model('room-2')],
    ]);
    const order = orderCandidates(
      ['full', 'off', 'room-1', 'my/own', 'room-2'],
      (id) => entries.get(id),
      () => 0,
    );
    expect(order).toEqual(['room-1', 'room-2', 'full', 'off', 'my/own']);
  });

  it('keeps the first model first whenever it has room: no load balancing', () => {
    const busier = model('first', { capacity: 8, inflight: 7 });
    const idle = model('second', { capacity: 8, inflight: 0 });
    const entries = new Map([
      ['first', busier],
      ['second', idle],
    ]);
    expect(
      orderCandidates(
        ['first', 'second'],
        (id) => entries.get(id),
        () => 0,
      ),
    ).toEqual(['first', 'second']);
    expect(
      orderCandidates(
        ['first', 'second'],
        (id) => entries.get(id),
        (id) => (id === 'first' ? 1 : 0),
      ),
    ).toEqual(['second', 'first']);
  });
});
