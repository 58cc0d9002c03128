import { createGatewayClient, type GatewayClient } from '@infergate/core';
import {
  createEmulator,
  DEFAULT_KEYS,
  type Emulator,
  type ScenarioInput,
} from '@infergate/emulator';

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

export function createCell(
  scenario?: ScenarioInput,
  apiKey: string = DEFAULT_KEYS.full,
  baseURL = `https://cell-${++sequence}.test/v1`,
): Cell {
  const emulator = createEmulator(scenario);
  const fetch: typeof globalThis.fetch = emulator.fetch;
  return {
    emulator,
    baseURL,
    apiKey,
    fetch,
    observer: createGatewayClient({ baseURL, apiKey, fetch }),
    inflight: () => emulator.counters.inflight[apiKey] ?? 0,
  };
}

/**
 * Waits until the key's budget is idle (its `whenIdle` event) and the emulator has nothing in
 * flight (looked at every 5 ms: the emulator has no event for it yet), then
 * says whether both hold. A cut request's slot comes back after core's grace: how long that takes
 * depends on the machine's load, so the wait is for the state. `safetyNetMs` only catches a leak
 * (a slot held for good); it is far beyond any grace, however loaded the machine.
 */
export async function settle(cell: Cell, safetyNetMs = 60_000): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let gaveUp = false;
  const net = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      gaveUp = true;
      resolve();
    }, safetyNetMs);
  });
  const idle = (async () => {
    await cell.observer.budget.whenIdle();
    while (!gaveUp && cell.inflight() > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  })();
  await Promise.race([idle, net]);
  clearTimeout(timer);
  gaveUp = true;
  return cell.observer.budget.isIdle && cell.inflight() === 0;
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
