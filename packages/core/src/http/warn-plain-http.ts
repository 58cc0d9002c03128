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

/** localhost, 127.0.0.0/8 and [::1]: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Whether requests to this base URL would carry the key in clear text to another machine. */
export function isPlainHttpToRemote(baseURL: string): boolean {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
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
