// docs/gateway-protocol.md §4.7 (what steering keeps per key, on the realm's shared state).
/** Entries `setRecent` looks at, oldest first, for one it may forget before the others. */
const LOOKED_AT_FOR_EVICTION = 16;

/**
 * Sets `key` to `value` in `map` as its most recently used entry and forgets the least recently
 * used past `max`: per-key state on the realm (hedge timings, hedge allowances, breakers) stays
 * bounded for a server with a client per user key, while a key in use keeps its own. With
 * `disposable`, one of the oldest few it accepts goes first. No allocation unless the map is full.
 * (Plain `Map` insertion order, so every copy of core in the realm keeps the same order.)
 */
export function setRecent<K, V>(
  map: Map<K, V>,
  key: K,
  value: V,
  max: number,
  disposable?: (value: V) => boolean,
): void {
  map.delete(key);
  map.set(key, value);
  // (`while`: another copy of core in the realm may have filled it past `max`.)
  while (map.size > max) map.delete(evicted(map, disposable));
}

function evicted<K, V>(map: Map<K, V>, disposable: ((value: V) => boolean) | undefined): K {
  let oldest: K | undefined;
  let looked = 0;
  for (const [key, value] of map) {
    if (looked === 0) oldest = key;
    if (disposable === undefined || disposable(value)) return key;
    if (++looked === LOOKED_AT_FOR_EVICTION) break;
  }
  return oldest as K;
}
