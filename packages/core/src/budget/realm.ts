// docs/gateway-protocol.md §2.5 (the key's slots are the key's, whichever copy of core counts them).
/**
 * This JavaScript realm's shared state: the default key budget, and what steering counts per model
 * (our requests in flight, breakers). It lives on `globalThis` under one registered symbol, so every
 * copy of core in the realm (the ESM build beside the CJS one, two bundles of one app) reads and
 * writes the same values: one realm, one count. Values are plain maps and objects, never instances
 * of one copy's classes that another copy would not recognise (the budget excepted: every copy's
 * has the same shape).
 */
const REALM = Symbol.for('@infergate/core.realm');

type RealmValues = Record<string, unknown>;

/**
 * The realm's values once found (they never change: the property is neither writable nor
 * configurable).
 */
let found: RealmValues | undefined;

function realm(): RealmValues {
  if (found !== undefined) return found;
  const holder = globalThis as unknown as Record<symbol, RealmValues | undefined>;
  let values = holder[REALM];
  if (typeof values !== 'object' || values === null) {
    values = {};
    // A realm hardened before core's first use takes no new property: this copy keeps its own.
    if (Object.isExtensible(globalThis)) {
      Object.defineProperty(globalThis, REALM, { value: values, enumerable: false });
    }
  }
  found = values;
  return values;
}

/**
 * The realm's value `name`: made by `create` the first time (by whichever copy asks first), the
 * same object for every copy after; `valid` checks one another copy stored.
 */
export function realmValue<T>(
  name: string,
  create: () => T,
  valid?: (value: unknown) => boolean,
): T {
  const values = realm();
  let value = values[name];
  if (value === undefined || (valid !== undefined && !valid(value))) {
    value = create();
    values[name] = value;
  }
  return value as T;
}
