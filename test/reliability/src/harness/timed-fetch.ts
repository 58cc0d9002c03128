import { AsyncLocalStorage } from 'node:async_hooks';

/** Timestamps of one logical call, carried through its async work to the fetch it makes. */
export interface CallTiming {
  start: number;
  /** When the call's first request to its endpoint left (catalog reads excluded). */
  sent?: number;
  /** When the first body bytes of that request arrived. */
  bodyStarted?: number;
  /** Called once, when `bodyStarted` is set (what `timedCall`'s `bodyStarted` promise waits on). */
  onBodyStarted?: () => void;
}

export const callTiming = new AsyncLocalStorage<CallTiming>();

/**
 * Runs `work` as one call whose timing the instrumented fetch records; `bodyStarted` resolves when
 * the first body bytes of its request arrive (an event to wait on, instead of polling `timing`).
 */
export function timedCall<T>(work: () => Promise<T>): {
  timing: CallTiming;
  result: Promise<T>;
  bodyStarted: Promise<void>;
} {
  const timing: CallTiming = { start: performance.now() };
  const bodyStarted = new Promise<void>((resolve) => {
    timing.onBodyStarted = resolve;
  });
  return { timing, result: callTiming.run(timing, work), bodyStarted };
}

function pathOf(input: string | URL | Request): string {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return new URL(url).pathname;
}

/**
 * A fetch that records, per call, when its request was sent (so queue wait = sent − start) and,
 * per request, the service time from sending to the last body byte (or cancel).
 */
export function timedFetch(
  base: typeof globalThis.fetch,
  serviceTimes: number[],
): typeof globalThis.fetch {
  return async (input, init) => {
    const timing = callTiming.getStore();
    const catalog = /\/(models|capabilities)$/.test(pathOf(input as string | URL | Request));
    if (timing && !catalog) timing.sent ??= performance.now();
    const started = performance.now();
    const response = await base(input, init);
    if (!response.body) {
      serviceTimes.push(performance.now() - started);
      return response;
    }
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      serviceTimes.push(performance.now() - started);
    };
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            finish();
            controller.close();
            return;
          }
          if (timing && !catalog && timing.bodyStarted === undefined) {
            timing.bodyStarted = performance.now();
            timing.onBodyStarted?.();
          }
          controller.enqueue(value);
        } catch (error) {
          finish();
          controller.error(error);
        }
      },
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** A small seeded generator, so a load or abort run repeats. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}
