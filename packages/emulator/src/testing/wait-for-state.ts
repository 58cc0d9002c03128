// docs/gateway-protocol.md §2.5 (the requests a key has in flight, and their slots given back).
import type { EmulatorCounters, EndpointName } from '../counters';
import type { Emulator } from '../emulator';
import { refuseUnknownOptions } from '../field-names';
import { timerMs } from '../timing';
import { realClearTimeout, realSetTimeout } from './real-clock';

export interface UntilOptions {
  /**
   * A safety net, not the assertion: after this long the wait fails, naming what it waited for
   * and the counters it saw. Default 30 s (a test's own timeout may end it first).
   */
  timeoutMs?: number;
  /** What the wait is for, in the failure message (e.g. `'4 requests held'`). */
  what?: string;
}

export interface KeyOptions extends UntilOptions {
  /** One key's requests; all keys' by default. */
  key?: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** The keys of a wait's options: `until`'s, plus `key` or `endpoint` where the wait takes one. */
const UNTIL_OPTION_KEYS = ['timeoutMs', 'what'] as const satisfies readonly (keyof UntilOptions)[];
const KEY_OPTION_KEYS = [...UNTIL_OPTION_KEYS, 'key'] as const;
const REQUESTS_OPTION_KEYS = [...UNTIL_OPTION_KEYS, 'endpoint'] as const;

/** Requests in flight now: one key's, or all keys' together. */
export function inflightOf(counters: EmulatorCounters, key?: string): number {
  if (key !== undefined) return counters.inflight[key] ?? 0;
  return Object.values(counters.inflight).reduce((sum, count) => sum + count, 0);
}

/**
 * Resolves once `predicate` holds on the emulator's state: checked now, then after each change of
 * its counters (`emulator.onChange`), never on a timer. Rejects when the predicate throws, or
 * after `timeoutMs` of real time (faked timers do not move it), with the counters as they were.
 */
export function until(
  emulator: Emulator,
  predicate: (counters: EmulatorCounters, emulator: Emulator) => boolean,
  options: UntilOptions = {},
): Promise<void> {
  refuseUnknownOptions(options, UNTIL_OPTION_KEYS, 'until');
  const { timeoutMs = DEFAULT_TIMEOUT_MS, what = 'the predicate to hold' } = options;
  return new Promise<void>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe = () => {};
    const finish = (error?: Error) => {
      realClearTimeout(timer);
      unsubscribe();
      if (error) reject(error);
      else resolve();
    };
    const check = (): boolean => {
      try {
        if (!predicate(emulator.counters, emulator)) return false;
        finish();
      } catch (error) {
        finish(error instanceof Error ? error : new Error(String(error)));
      }
      return true;
    };
    if (check()) return;
    unsubscribe = emulator.onChange(check);
    timer = realSetTimeout(() => {
      const seen = JSON.stringify(emulator.counters);
      finish(
        new Error(`until: still waiting for ${what} after ${timeoutMs} ms; counters: ${seen}`),
      );
      // (`Infinity`, or past what one timer holds: as good as never, not at once.)
    }, timerMs(timeoutMs));
  });
}

/** Requests held now (`holdAnswers`): one key's, or all keys' together. */
export function heldOf(counters: EmulatorCounters, key?: string): number {
  if (key !== undefined) return counters.held[key] ?? 0;
  return Object.values(counters.held).reduce((sum, count) => sum + count, 0);
}

/**
 * Until at least `count` requests are held: waiting at a hold (`holdAnswers`), past every check
 * that could refuse them (their latency, validation, their model's capacity). A request that has
 * only arrived is not held yet: `untilInflight` waits for those.
 */
export function untilHeld(emulator: Emulator, count: number, options: KeyOptions = {}) {
  refuseUnknownOptions(options, KEY_OPTION_KEYS, 'untilHeld');
  const { key, ...rest } = options;
  const what = `${count} request(s) held${key === undefined ? '' : ` on key ${mask(key)}`}`;
  return until(emulator, (counters) => heldOf(counters, key) >= count, { what, ...rest });
}

/**
 * Until at least `count` requests are in flight: arrived, each holding its key's slot, wherever
 * they are (in their latency, held, streaming), until their answer ends.
 */
export function untilInflight(emulator: Emulator, count: number, options: KeyOptions = {}) {
  refuseUnknownOptions(options, KEY_OPTION_KEYS, 'untilInflight');
  const { key, ...rest } = options;
  const what = `${count} request(s) in flight${key === undefined ? '' : ` on key ${mask(key)}`}`;
  return until(emulator, (counters) => inflightOf(counters, key) >= count, { what, ...rest });
}

/** Until no request is in flight: every slot (a key's, or all keys') is back. */
export function untilIdle(emulator: Emulator, options: KeyOptions = {}) {
  refuseUnknownOptions(options, KEY_OPTION_KEYS, 'untilIdle');
  const { key, ...rest } = options;
  const what = `no request in flight${key === undefined ? '' : ` on key ${mask(key)}`}`;
  return until(emulator, (counters) => inflightOf(counters, key) === 0, { what, ...rest });
}

/** Until the emulator has seen at least `count` requests to `endpoint` (chat by default). */
export function untilRequests(
  emulator: Emulator,
  count: number,
  options: UntilOptions & { endpoint?: EndpointName } = {},
) {
  refuseUnknownOptions(options, REQUESTS_OPTION_KEYS, 'untilRequests');
  const { endpoint = 'chat', ...rest } = options;
  const what = `${count} ${endpoint} request(s)`;
  return until(emulator, (counters) => counters.requests[endpoint] >= count, { what, ...rest });
}

/** Until at least `count` streamed answers were cancelled before their end (1 by default). */
export function untilCancelled(emulator: Emulator, count = 1, options: UntilOptions = {}) {
  refuseUnknownOptions(options, UNTIL_OPTION_KEYS, 'untilCancelled');
  const what = `${count} stream(s) cancelled`;
  return until(emulator, (counters) => counters.streamsCancelled >= count, { what, ...options });
}

/** A key in a message: its first characters only. */
function mask(key: string): string {
  return key.length <= 8 ? '…' : `${key.slice(0, 6)}…`;
}
