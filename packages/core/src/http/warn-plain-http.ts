// docs/gateway-protocol.md §2.1 (plain `http://` to a remote host).
import { redactSecret } from '../errors/redact-secret';

/**
 * Base URLs already warned about, process-wide (kept on globalThis: ESM and CJS copies share it),
 * as printed: redacted, so that no key is kept there either.
 */
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
 * The base URL as the warning prints it: the key redacted wherever it appears (path, query,
 * user-info; raw or encoded, as errors redact it) and any user-info replaced, since it is a
 * credential whatever it holds. (Options refuse query and credentials; this does not rely on it.)
 */
export function printableBaseURL(baseURL: string, apiKey: string): string {
  return redactSecret(baseURL, apiKey).replace(
    /^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i,
    '$1[redacted]@',
  );
}

/**
 * Logs once per base URL (per process) that the API key is about to travel unencrypted, the URL
 * printed without the key (`printableBaseURL`).
 */
export function warnPlainHttpOnce(baseURL: string, apiKey: string): void {
  const printable = printableBaseURL(baseURL, apiKey);
  const seen = warned();
  if (seen.has(printable)) return;
  seen.add(printable);
  console.warn(
    `[@infergate/core] Warning: the gateway base URL ${printable} is plain http:// to a host that is not loopback: the API key is sent unencrypted. Use https://.`,
  );
}
