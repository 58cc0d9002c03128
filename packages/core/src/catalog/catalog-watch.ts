// docs/gateway-protocol.md §3.3 (the catalog is a short-lived snapshot: read again on a schedule,
// and after a service call answered `provider_unavailable`).
import type { CallOptions } from '../call/call-options';
import { monotonicNow } from '../call/monotonic-clock';
import { invalidRequest } from '../errors/errors';
import type { GatewayService } from '../protocol/wire-types';

/** A periodic re-read of the services (`client.watchCatalog`). */
export interface CatalogWatch {
  /**
   * Reads the services now, past the cache (one read at a time: a call during a read joins it).
   * Resolves once `onRead` has seen them, to whether the read succeeded; never rejects.
   */
  refresh(): Promise<boolean>;
  /** Stops the reads; a read in flight then calls nothing. */
  close(): void;
}

/**
 * The watches of one client, each told of every failure of the client's service calls (client.ts):
 * whether one calls for a re-read is the watch's rule, below.
 */
export type ServiceFailureWatchers = Set<(error: unknown) => void>;

/** What a watch reads through (the client): its cache, forgotten before each read. */
export interface CatalogSource {
  refreshCatalog(): void;
  services(options: CallOptions): Promise<GatewayService[]>;
}

/** The longest a scheduled read may take: a hung gateway must not stop the schedule. */
const READ_TIMEOUT_MS = 30_000;

/**
 * The least time between two re-reads that service calls answered `provider_unavailable` ask for:
 * a burst of such failures costs one read at once and at most one more after this time, each
 * taking one of the key's slots, not one read per failure.
 */
export const RECHECK_MIN_MS = 5_000;

/**
 * Reads the services every `intervalMs` (`0`: only on `refresh()`), bypassing the cache, and gives
 * each list read to `onRead`; `watchers`: where it hears of the client's service calls' failures
 * while it is open. A read that fails is skipped (what was known stays known); the timer
 * never keeps a process alive. A service call of the client answered `provider_unavailable` (a
 * service may have lost its nodes) reads them again too, at most once every `RECHECK_MIN_MS`;
 * a chat call's does not (that says nothing of the services).
 */
export function watchCatalog(
  source: CatalogSource,
  watchers: ServiceFailureWatchers,
  intervalMs: number,
  onRead: (services: GatewayService[]) => void,
): CatalogWatch {
  // (`Number.isFinite` is false for anything not a number.)
  if (!(Number.isFinite(intervalMs) && intervalMs >= 0)) {
    throw invalidRequest(
      'intervalMs',
      `watchCatalog's interval must be a number of ms ≥ 0, got ${String(intervalMs)}`,
    );
  }
  let inFlight: Promise<boolean> | undefined;
  let closed = false;
  const read = (): Promise<boolean> => {
    source.refreshCatalog();
    return source.services({ timeoutMs: READ_TIMEOUT_MS }).then(
      (services) => {
        if (closed) return false;
        onRead(services);
        return true;
      },
      () => false,
    );
  };
  const refresh = () => {
    inFlight ??= read().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
  // The re-read a service call's `provider_unavailable` asks for: when the last such read began
  // `RECHECK_MIN_MS` ago or more, on the timers' next turn; else once that time has passed. One
  // read due at most, whatever the number of failures meanwhile (a read in flight is joined).
  let last = -Infinity;
  let due: ReturnType<typeof setTimeout> | undefined;
  const reread = () => {
    due = undefined;
    last = monotonicNow();
    void refresh();
  };
  const recheck = (error: unknown) => {
    if ((error as { code?: unknown } | null)?.code !== 'provider_unavailable' || due) return;
    due = setTimeout(reread, last + RECHECK_MIN_MS - monotonicNow());
    unref(due);
  };
  watchers.add(recheck);
  const timer = intervalMs > 0 ? setInterval(() => void refresh(), intervalMs) : undefined;
  unref(timer);
  return {
    refresh,
    close() {
      closed = true;
      watchers.delete(recheck);
      clearTimeout(due);
      if (timer !== undefined) clearInterval(timer);
    },
  };
}

/** A timer of the watch's never keeps a process alive on its own (Node's have `unref`). */
function unref(timer: unknown): void {
  (timer as { unref?: () => void } | undefined)?.unref?.();
}
