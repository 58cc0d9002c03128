// docs/gateway-protocol.md §2.5 (requests at once per key, as the emulator counts them).
export type EndpointName =
  | 'models'
  | 'capabilities'
  | 'chat'
  | 'embeddings'
  | 'ocr'
  | 'transcriptions'
  | 'translations';

export const ENDPOINT_NAMES: readonly EndpointName[] = [
  'models',
  'capabilities',
  'chat',
  'embeddings',
  'ocr',
  'transcriptions',
  'translations',
];

/** What the emulator saw; a live object, reset by `emulator.resetCounters()`. */
export interface EmulatorCounters {
  /** Every request that reached an endpoint, refused ones included. */
  requests: Record<EndpointName, number>;
  /**
   * By API key, right now. A stream counts until its last bytes are handed to the reader (or it
   * is cancelled); other answers until their headers are returned.
   */
  inflight: Record<string, number>;
  /**
   * By API key, right now: requests a test's hold (`holdAnswers`) keeps, each past every check
   * that could refuse it and waiting before its headers. Part of `inflight`.
   */
  held: Record<string, number>;
  /** By API key, highest seen since the last reset. */
  maxInflight: Record<string, number>;
  /** Highest number of requests running at once across keys since the last reset. */
  maxInflightTotal: number;
  /** 429 `client_concurrency_exceeded` responses sent (injected `rate_limit` faults included). */
  concurrencyRejections: number;
  /** Streamed answers that ended before their last event: the reader cancelled or went away. */
  streamsCancelled: number;
}

function zeroRequests(): Record<EndpointName, number> {
  return Object.fromEntries(ENDPOINT_NAMES.map((name) => [name, 0])) as Record<
    EndpointName,
    number
  >;
}

export function createCounters(): EmulatorCounters {
  return {
    requests: zeroRequests(),
    inflight: {},
    held: {},
    maxInflight: {},
    maxInflightTotal: 0,
    concurrencyRejections: 0,
    streamsCancelled: 0,
  };
}

/**
 * Resets in place so that references held by tests stay live. Requests still running keep their
 * in-flight and held counts (they will release them), and the maxima restart from what runs now.
 */
export function resetCounters(counters: EmulatorCounters): void {
  for (const name of ENDPOINT_NAMES) counters.requests[name] = 0;
  counters.concurrencyRejections = 0;
  counters.streamsCancelled = 0;
  let total = 0;
  for (const key of Object.keys(counters.maxInflight)) delete counters.maxInflight[key];
  for (const [key, count] of Object.entries(counters.inflight)) {
    total += count;
    if (count > 0) counters.maxInflight[key] = count;
  }
  counters.maxInflightTotal = total;
}

/** Tracks requests running now, per key and in total. */
export class InflightTracker {
  private total = 0;
  constructor(
    private readonly counters: EmulatorCounters,
    /** Called after each change, for `emulator.onChange`. */
    private readonly changed: () => void = () => undefined,
  ) {}

  current(key: string): number {
    return this.counters.inflight[key] ?? 0;
  }

  /** Counts one request in; returns a release function that is safe to call more than once. */
  acquire(key: string): () => void {
    const counters = this.counters;
    const now = (counters.inflight[key] ?? 0) + 1;
    counters.inflight[key] = now;
    if (now > (counters.maxInflight[key] ?? 0)) counters.maxInflight[key] = now;
    this.total += 1;
    if (this.total > counters.maxInflightTotal) counters.maxInflightTotal = this.total;
    this.changed();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const live = this.counters;
      live.inflight[key] = Math.max(0, (live.inflight[key] ?? 1) - 1);
      this.total -= 1;
      this.changed();
    };
  }
}
