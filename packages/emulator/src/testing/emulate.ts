// docs/gateway-protocol.md §2.1 (the base URL), §2.2 (the key), §2.5 (a budget per key and origin).

import { type CorsOption, checkedCorsOption } from '../cors';
import type { EmulatorCounters, EndpointName } from '../counters';
import { createEmulator, type Emulator } from '../emulator';
import { refuseUnknownOptions } from '../field-names';
import { fullAccessKey } from '../full-access-key';
import type { HoldOptions } from '../held-answers';
import type { ScenarioInput } from '../scenario';
import {
  type KeyOptions,
  type UntilOptions,
  until,
  untilCancelled,
  untilHeld,
  untilIdle,
  untilInflight,
  untilRequests,
} from './wait-for-state';

/** How the client reaches the emulator. */
export type EmulateAs = 'fetch' | 'msw' | 'http';

export interface EmulateOptions {
  /** Scenario merged over `defaultScenario()`. */
  scenario?: ScenarioInput;
  /** Serve this emulator instead of a new one made from `scenario`. */
  emulator?: Emulator;
  /**
   * `'fetch'` (default): `gateway.fetch` is the emulator's fetch handler, nothing listens.
   * `'msw'`: msw handlers answer the global `fetch` under `baseURL` (msw must be installed).
   * `'http'`: the emulator's real HTTP server on a free loopback port (Node only).
   */
  as?: EmulateAs;
  /**
   * `'fetch'` and `'msw'`: the base URL the client uses. Default: a host of its own for each
   * gateway (`https://gateway-<n>.test/v1`), so a client's per-origin budget is this test's alone.
   */
  baseURL?: string;
  /**
   * The key the client sends. Default, in every mode: `DEFAULT_KEYS.full` when the scenario has
   * it, else the scenario's most capable key (as `startEmulator`'s `apiKey`).
   */
  apiKey?: string;
  /**
   * `'http'`: let browser apps on other origins call the server (see `startEmulator`; `false` is
   * off). Checked in every mode, so a wrong value fails where it is written.
   */
  cors?: CorsOption | false;
  /**
   * A test framework's hooks (vitest's or jest's `afterEach` / `afterAll`): with them the counters
   * and injected faults are reset after each test and the gateway closed after all.
   */
  hooks?: {
    afterEach?: (fn: () => void) => void;
    afterAll?: (fn: () => Promise<void>) => void;
  };
}

/** Every key `emulate` takes, and its `hooks`'. */
const EMULATE_OPTION_KEYS = [
  'scenario',
  'emulator',
  'as',
  'baseURL',
  'apiKey',
  'cors',
  'hooks',
] as const satisfies readonly (keyof EmulateOptions)[];
true satisfies Exclude<keyof EmulateOptions, (typeof EMULATE_OPTION_KEYS)[number]> extends never
  ? true
  : false;
const HOOK_KEYS = ['afterEach', 'afterAll'] as const satisfies readonly (keyof NonNullable<
  EmulateOptions['hooks']
>)[];

/** The fields a client needs: `createGatewayClient({ ...gateway.connection, maxRetries: 0 })`. */
export interface GatewayConnection {
  baseURL: string;
  apiKey: string;
  fetch: typeof globalThis.fetch;
}

/** An emulated gateway that a test reaches, waits on, and closes. */
export interface EmulatedGateway extends GatewayConnection {
  readonly as: EmulateAs;
  /** `{ baseURL, apiKey, fetch }`, to spread into a client's options. */
  readonly connection: GatewayConnection;
  readonly emulator: Emulator;
  /** The emulator's live counters (`emulator.counters`). */
  readonly counters: EmulatorCounters;
  /** Until `predicate` holds on the counters (checked at each change, never on a timer). */
  until(predicate: (counters: EmulatorCounters) => boolean, options?: UntilOptions): Promise<void>;
  /**
   * Until at least `count` requests are held (all keys', or `options.key`'s): waiting at a `hold`,
   * past every check that could refuse them.
   */
  untilHeld(count: number, options?: KeyOptions): Promise<void>;
  /** Until at least `count` requests are in flight: arrived, holding their key's slot. */
  untilInflight(count: number, options?: KeyOptions): Promise<void>;
  /** Until nothing is in flight: the slots are back. */
  untilIdle(options?: KeyOptions): Promise<void>;
  /** Until the emulator has seen `count` requests to `endpoint` (chat by default). */
  untilRequests(count: number, options?: UntilOptions & { endpoint?: EndpointName }): Promise<void>;
  /** Until `count` streamed answers (1 by default) were cancelled before their end. */
  untilCancelled(count?: number, options?: UntilOptions): Promise<void>;
  /**
   * Holds `endpoint`'s answers (chat by default) from now on (`emulator.holdAnswers`): the
   * requests it accepts stay in flight until the returned function releases them (or their
   * `requestTimeoutMs` passes); its refusals come at once, but with `{ faults: true }` an injected
   * fault's answer (a 429, a 5xx, a dropped connection) is held too. `reset()` and `close()`
   * release what is still held.
   */
  hold(endpoint?: EndpointName, options?: HoldOptions): () => void;
  /** Resets the counters and removes injected faults (the scenario stays). */
  reset(): void;
  /** Stops serving (msw stops intercepting; the server stops listening). Safe to call twice. */
  close(): Promise<void>;
}

/**
 * The hosts handed out so far, counted on the realm, not in this module: a test runner that
 * evaluates the kit again (vitest's `vi.resetModules()`, files sharing a worker) would otherwise
 * start again at `gateway-1`, while core's key budget, kept per realm, still counts the slots of
 * an earlier test's client on that host (its `budget.isIdle` then reads false).
 */
const HOSTS = Symbol.for('@infergate/emulator.testing.hosts');
const realm = globalThis as { [HOSTS]?: number };

/**
 * An emulator the test's client reaches as a fetch function, through msw, or over real HTTP,
 * made with one call and closed with `close()`:
 * `const gateway = await emulate({ scenario: { latencyMs: 50 } })`.
 */
export async function emulate(options: EmulateOptions = {}): Promise<EmulatedGateway> {
  refuseUnknownOptions(options, EMULATE_OPTION_KEYS, 'emulate');
  if (options.hooks !== undefined) refuseUnknownOptions(options.hooks, HOOK_KEYS, 'emulate hooks');
  if (options.cors !== undefined && options.cors !== false) checkedCorsOption(options.cors);
  const emulator = options.emulator ?? createEmulator(options.scenario);
  const as = options.as ?? 'fetch';
  // One rule in every mode (startEmulator's): the scenario's full default key, else its most capable.
  const apiKey = options.apiKey ?? fullAccessKey(emulator.scenario);
  const host = (realm[HOSTS] ?? 0) + 1;
  realm[HOSTS] = host;
  const baseURL = options.baseURL ?? `https://gateway-${host}.test/v1`;
  let served: { baseURL: string; apiKey: string; fetch: typeof fetch; close(): Promise<void> };
  if (as === 'http') served = { ...(await overHttp(emulator, options)), apiKey };
  else if (as === 'msw') served = { ...(await throughMsw(emulator, baseURL)), baseURL, apiKey };
  else served = { baseURL, apiKey, fetch: emulator.fetch, close: async () => {} };
  const gateway = gatewayOf(as, emulator, served);
  options.hooks?.afterEach?.(() => gateway.reset());
  options.hooks?.afterAll?.(() => gateway.close());
  return gateway;
}

function gatewayOf(
  as: EmulateAs,
  emulator: Emulator,
  served: { baseURL: string; apiKey: string; fetch: typeof fetch; close(): Promise<void> },
): EmulatedGateway {
  const { baseURL, apiKey, fetch } = served;
  let closing: Promise<void> | undefined;
  const holds: (() => void)[] = [];
  const releaseHolds = () => {
    for (const release of holds.splice(0)) release();
  };
  return {
    as,
    baseURL,
    apiKey,
    fetch,
    connection: { baseURL, apiKey, fetch },
    emulator,
    counters: emulator.counters,
    until: (predicate, options) => until(emulator, (counters) => predicate(counters), options),
    untilHeld: (count, options) => untilHeld(emulator, count, options),
    untilInflight: (count, options) => untilInflight(emulator, count, options),
    untilIdle: (options) => untilIdle(emulator, options),
    untilRequests: (count, options) => untilRequests(emulator, count, options),
    untilCancelled: (count, options) => untilCancelled(emulator, count, options),
    hold: (endpoint, options) => {
      const release = emulator.holdAnswers(endpoint, options);
      holds.push(release);
      return release;
    },
    reset: () => {
      releaseHolds();
      emulator.clearFaults();
      emulator.resetCounters();
    },
    close: () => {
      releaseHolds();
      closing ??= served.close();
      return closing;
    },
  };
}

/** The emulator's HTTP server, loaded only here so the kit itself stays free of `node:` imports. */
async function overHttp(emulator: Emulator, options: EmulateOptions) {
  const { startEmulator } = await import('../server');
  const running = await startEmulator({ emulator, cors: options.cors });
  const fetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init);
  return {
    baseURL: running.url,
    fetch,
    close: () => running.close(),
  };
}

/** msw's server with the emulator's handlers, loaded only here (msw is an optional peer). */
async function throughMsw(emulator: Emulator, baseURL: string) {
  const [{ setupServer }, { gatewayHandlers }] = await Promise.all([
    import('msw/node'),
    import('../msw'),
  ]);
  const server = setupServer(...gatewayHandlers(emulator, baseURL));
  server.listen({ onUnhandledFrame: 'error' });
  // The global fetch, looked up at each call: msw patches it.
  const fetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init);
  return { fetch, close: async () => server.close() };
}
