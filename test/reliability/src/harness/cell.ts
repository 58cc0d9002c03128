import { createGatewayClient, type GatewayClient } from '@infergate/core';
import { DEFAULT_KEYS, type Emulator, type ScenarioInput } from '@infergate/emulator';
import { emulate, untilIdle } from '@infergate/emulator/testing';

let sequence = 0;

/**
 * One isolated gateway for one test cell: its own emulator and its own base URL, so that the
 * process-wide concurrency budget (keyed by base URL + API key) is the cell's alone and cells can
 * run side by side. `observer` is a core client on the same URL and key: it sees the shared budget.
 */
export interface Cell {
  emulator: Emulator;
  baseURL: string;
  apiKey: string;
  fetch: typeof globalThis.fetch;
  observer: GatewayClient;
  /** Requests in flight at the emulator for this key right now. */
  inflight(): number;
}

/** The kit's gateway (reached as a fetch function) as a cell. */
export async function createCell(
  scenario?: ScenarioInput,
  apiKey: string = DEFAULT_KEYS.full,
  baseURL = `https://cell-${++sequence}.test/v1`,
): Promise<Cell> {
  const gateway = await emulate({ scenario, apiKey, baseURL });
  return cellFor(gateway.emulator, gateway.baseURL, apiKey, gateway.fetch);
}

/**
 * Waits until the key's budget is idle and the emulator has nothing in flight: on their own
 * events (the budget's `whenIdle`, the emulator's `onChange`). `maxWaitMs` only catches a leak
 * (a slot held for good): far beyond a cut request's grace (100 ms after the cut), however loaded
 * the machine.
 */
export async function settle(cell: Cell, maxWaitMs = 60_000): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), maxWaitMs);
  });
  const idle = Promise.all([
    cell.observer.budget.whenIdle(),
    untilIdle(cell.emulator, { key: cell.apiKey, timeoutMs: maxWaitMs }),
  ]).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([idle, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A cell around a running emulator (the real HTTP server), reached with `fetch`. */
export function cellFor(
  emulator: Emulator,
  baseURL: string,
  apiKey: string,
  fetch: typeof globalThis.fetch,
): Cell {
  return {
    emulator,
    baseURL,
    apiKey,
    fetch,
    observer: createGatewayClient({ baseURL, apiKey, fetch }),
    inflight: () => emulator.counters.inflight[apiKey] ?? 0,
  };
}
