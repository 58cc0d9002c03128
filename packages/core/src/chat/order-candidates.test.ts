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
    ['no capacity reported: room', model('a'), 5, 0],
    ['below capacity', model('a', { capacity: 2 }), 1, 0],
    ['at capacity', model('a', { capacity: 2 }), 2, 1],
    ['no node', model('a', { available_nodes: 0, capacity: 2, inflight: 0 }), 0, 2],
    ['unlisted (an own model)', undefined, 0, 2],
  ] as const)('%s', (_name, entry, running, tier) => {
    expect(tierOf(entry, running)).toBe(tier);
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
      (id) => entries.get(id)?.inflight ?? 0,
    );
    expect(order).toEqual(['room-1', 'room-2', 'full', 'off', 'my/own']);
  });

  it('keeps the first model first whenever it has room: no load balancing', () => {
    const entries = new Map([
      ['first', model('first', { capacity: 8 })],
      ['second', model('second', { capacity: 8 })],
    ]);
    const order = (running: Record<string, number>) =>
      orderCandidates(
        ['first', 'second'],
        (id) => entries.get(id),
        (id) => running[id] ?? 0,
      );
    expect(order({ first: 7, second: 0 })).toEqual(['first', 'second']);
    expect(order({ first: 8, second: 0 })).toEqual(['second', 'first']);
  });
});
