// docs/gateway-protocol.md §2.5 (request duration: past it, 504 `request_timeout`).
import { GatewayRefusal } from './gateway-error';
import type { Latency } from './scenario';

/** Uniform latency in [min, max] from a fixed-seed generator, so runs repeat. */
let seed = 0x2545f491;
function nextRandom(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
}

export function nextLatency(latency: Latency): number {
  if (typeof latency === 'number') return Math.max(0, latency);
  const min = Math.max(0, latency.min);
  const max = Math.max(min, latency.max);
  return min === max ? min : Math.round(min + (max - min) * nextRandom());
}

function abortError(): DOMException {
  return new DOMException('The request was aborted', 'AbortError');
}

/**
 * Waits `ms` before the response headers. Past the deadline it refuses with 504
 * `request_timeout`; when the client aborts, it rejects like fetch does (AbortError).
 */
export async function waitBeforeHeaders(
  ms: number,
  deadline: number,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) throw abortError();
  if (ms <= 0) return;
  const remaining = deadline - Date.now();
  const wait = Math.min(ms, Math.max(0, remaining));
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, wait);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  if (ms > remaining) {
    throw new GatewayRefusal('request_timeout', 'The request exceeded its time limit');
  }
}
