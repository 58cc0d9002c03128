import { describe, expect, it, vi } from 'vitest';
import { realmValue } from './realm';

const REALM = Symbol.for('@infergate/core.realm');
const name = () => `realm-test-${Math.random()}`;

describe('realmValue (state every copy of core in the realm shares)', () => {
  it('makes a value once, and gives the same object after', () => {
    const key = name();
    const create = vi.fn(() => new Map<string, number>());
    const first = realmValue(key, create);
    first.set('a', 1);
    expect(realmValue(key, create)).toBe(first);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('is found by another copy of the module (a second bundle, the CJS build beside the ESM one)', async () => {
    const key = name();
    const mine = realmValue(key, () => ({ count: 1 }));
    vi.resetModules();
    const other = (await import('./realm')) as typeof import('./realm');
    expect(other.realmValue).not.toBe(realmValue);
    expect(other.realmValue(key, () => ({ count: 2 }))).toBe(mine);
  });

  it('replaces a value another copy stored that fails `valid`', () => {
    const key = name();
    realmValue(key, () => 'not a budget');
    const budget = { acquire: () => {} };
    const valid = (value: unknown) =>
      typeof (value as { acquire?: unknown }).acquire === 'function';
    expect(realmValue(key, () => budget, valid)).toBe(budget);
    expect(realmValue(key, () => ({ acquire: () => {} }), valid)).toBe(budget);
  });

  it('lives under one registered symbol, not enumerable on globalThis', () => {
    const key = name();
    const value = realmValue(key, () => ({}));
    const holder = (globalThis as unknown as Record<symbol, Record<string, unknown>>)[REALM];
    expect(holder?.[key]).toBe(value);
    expect(Object.getOwnPropertyDescriptor(globalThis, REALM)?.enumerable).toBe(false);
    expect(Object.keys(globalThis)).not.toContain(String(REALM));
  });
});
