import { describe, expect, it } from 'vitest';
import { setRecent } from './recently-used';

describe('setRecent: a map of at most `max` entries, the least recently used forgotten', () => {
  it('forgets the least recently set, and a key set again is the most recent', () => {
    const map = new Map<string, number>();
    for (const key of ['a', 'b', 'c']) setRecent(map, key, 0, 3);
    setRecent(map, 'a', 1, 3);
    setRecent(map, 'd', 0, 3);
    expect([...map.keys()]).toEqual(['c', 'a', 'd']);
  });

  it('forgets a disposable one among the oldest first, else the oldest', () => {
    const map = new Map<string, boolean>();
    const healthy = (value: boolean) => value;
    setRecent(map, 'failing', false, 2, healthy);
    setRecent(map, 'healthy', true, 2, healthy);
    setRecent(map, 'new', false, 2, healthy);
    expect([...map.keys()]).toEqual(['failing', 'new']);
    setRecent(map, 'newer', false, 2, healthy);
    expect([...map.keys()]).toEqual(['new', 'newer']);
  });

  it('brings a map filled past `max` (by another copy of core) back within it', () => {
    const map = new Map(Array.from({ length: 10 }, (_, i) => [`k${i}`, i]));
    setRecent(map, 'k10', 10, 4);
    expect([...map.keys()]).toEqual(['k7', 'k8', 'k9', 'k10']);
  });
});
