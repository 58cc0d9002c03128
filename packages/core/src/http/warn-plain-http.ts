// docs/gateway-protocol.md §2.1 (plain `http://` to a remote host).
/** Base URLs already warned about, process-wide (kept on globalThis: ESM and CJS copies share it). */
const WARNED = Symbol.for('@infergate/core.plainHttpWarned');

function warned(): Set<string> {
  const holder = globalThis as unknown as Record<symbol, Set<string> | undefined>;
  let set = holder[WARNED];
  if (!set) {
    set = new Set();
    Object.defineProperty(globalThis, WARNED, { value: set, enumerable: false });
  }
  return set;
}

/**
 * Logs once per base URL (per process) that the API key is about to travel unencrypted. The URL
 * holds no credentials (options refuse them) and the key is never quoted.
 */
export function warnPlainHttpOnce(baseURL: string): void {
  const seen = warned();
  if (seen.has(baseURL)) return;
  seen.add(baseURL);
  console.warn(
    `[@infergate/core] Warning: the gateway base URL ${baseURL} is plain http:// to a host that is not loopback, so the API key is sent unencrypted. Use https:// (http:// is meant for localhost only).`,
  );
}
