// docs/gateway-protocol.md §2.5 (the gateway counts requests per key).
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origin that names a gateway for budgeting: scheme, host and port, lowercase, default ports
 * dropped, and `localhost` / `127.0.0.1` / `[::1]` as one host. The path is not part of it: the
 * gateway counts requests per key, whatever path prefix reaches it.
 */
function budgetOrigin(baseURL: string): string {
  const url = new URL(baseURL);
  const host = LOOPBACK_HOSTS.has(url.hostname) ? 'localhost' : url.hostname;
  return `${url.protocol}//${host}${url.port === '' ? '' : `:${url.port}`}`;
}

/**
 * The budget id of (base URL, API key): a 106-bit non-cryptographic hash of the normalised origin
 * and the key, so that no budget (in memory or in a shared store) holds the key itself.
 */
export function budgetId(baseURL: string, apiKey: string): string {
  const text = `${budgetOrigin(baseURL)}\n${apiKey}`;
  return `ig-${hash53(text, 0x9e3779b9)}${hash53(text, 0x85ebca6b)}`;
}

/**
 * A budget id narrowed to the base URL's path (trailing slashes dropped): what is judged per
 * route to the gateway rather than per the key's slots (circuit breakers: two paths of one origin
 * may reach different deployments). Hashed: shared state holds no path text.
 */
export function pathScopedId(budgetId: string, baseURL: string): string {
  const path = new URL(baseURL).pathname.replace(/\/+$/, '');
  return `${budgetId}-${hash53(path, 0x9e3779b9)}`;
}

function hash53(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36).padStart(11, '0');
}
