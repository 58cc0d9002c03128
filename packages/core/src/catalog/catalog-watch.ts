// docs/gateway-protocol.md §3.3 (the catalog is a short-lived snapshot: read again on a schedule).
import type { CallOptions } from '../call/call-options';
import { GatewayError } from '../errors/errors';
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

/** What a watch reads through: the client's cache, forgotten before each read. */
export interface CatalogSource {
  invalidate(): void;
  services(options: CallOptions): Promise<GatewayService[]>;
}

/** The longest a scheduled read may take: a hung gateway must not stop the schedule. */
const READ_TIMEOUT_MS = 30_000;

/**
 * Reads the services every `intervalMs` (`0`: only on `refresh()`), bypassing the cache, and gives
 * each list read to `onRead`. A read that fails is skipped (what was known stays known); the timer
 * never keeps a process alive.
 */
export function watchCatalog(
  source: CatalogSource,
  intervalMs: number,
  onRead: (services: GatewayService[]) => void,
): CatalogWatch {
  if (!(typeof intervalMs === 'number' && Number.isFinite(intervalMs) && intervalMs >= 0)) {
    throw new GatewayError({
      code: 'invalid_request_error',
      message: `watchCatalog's intervalMs must be a number of ms ≥ 0, got ${String(intervalMs)}`,
      field: 'intervalMs',
    });
  }
  let inFlight: Promise<boolean> | undefined;
  let closed = false;
  const read = async (): Promise<boolean> => {
    let services: GatewayService[];
    try {
      source.invalidate();
      services = await source.services({ timeoutMs: READ_TIMEOUT_MS });
    } catch {
      return false;
    }
    if (closed) return false;
    onRead(services);
    return true;
  };
  const refresh = () => {
    inFlight ??= read().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
  const timer = intervalMs > 0 ? setInterval(() => void refresh(), intervalMs) : undefined;
  (timer as { unref?: () => void } | undefined)?.unref?.();
  return {
    refresh,
    close() {
      closed = true;
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
