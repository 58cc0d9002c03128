import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  createEmulator,
  DEFAULT_KEYS,
  type Emulator,
  type ScenarioInput,
} from '@infergate/emulator';
import type { GatewayClient } from '../src/client/client';
import type { GatewayClientOptions } from '../src/client/options';
import { createGatewayClient, type GatewayEvent } from '../src/index';

export { DEFAULT_KEYS };

let origins = 0;

export interface Harness {
  emulator: Emulator;
  client: GatewayClient;
  baseURL: string;
  /** Another client object on the same base URL and key (shares the budget). */
  another(options?: GatewayClientOptions): GatewayClient;
}

/**
 * An emulator behind `fetch: emulator.fetch` and a client on a base URL of its own, so that each
 * test has its own process-wide concurrency budget.
 */
export function harness(scenario?: ScenarioInput, options: GatewayClientOptions = {}): Harness {
  const emulator = createEmulator(scenario);
  const baseURL = `https://gateway-${++origins}.test/v1`;
  const fetch = emulator.fetch;
  const make = (extra: GatewayClientOptions = {}) =>
    createGatewayClient({
      baseURL,
      apiKey: DEFAULT_KEYS.full,
      fetch,
      retryBaseDelayMs: 0,
      ...options,
      ...extra,
    });
  return { emulator, client: make(), baseURL, another: make };
}

export const hi = (model = 'community/general', content = 'hello there') => ({
  model,
  messages: [{ role: 'user' as const, content }],
});

export async function caught(
  run: () => Promise<unknown>,
): Promise<import('../src/errors/errors').GatewayError> {
  try {
    await run();
  } catch (error) {
    const { isGatewayError } = await import('../src/errors/errors');
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

export function totalRequests(emulator: Emulator): number {
  return Object.values(emulator.counters.requests).reduce((sum, n) => sum + n, 0);
}

/**
 * Runs `script` (an ES module) in a fresh Node process with `--expose-gc`, for what only a
 * collection shows, and returns the JSON its output ends with.
 */
export async function runWithGc(script: string, cwd?: string): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--input-type=module', '-e', script],
    // Under the suite's 60 s test timeout, with room for a loaded machine.
    { timeout: 50_000, cwd },
  );
  return JSON.parse(stdout.trim());
}

/** A harness whose client records the events of its chat calls (not its catalog reads). */
export function recorded(...args: Parameters<typeof harness>) {
  const events: GatewayEvent[] = [];
  const [scenario, options = {}] = args;
  const setup = harness(scenario, {
    onEvent: (event) => {
      if (event.operation === 'chat') events.push(event);
    },
    ...options,
  });
  return { ...setup, events };
}

/** The events of one type, typed. */
export function only<T extends GatewayEvent['type']>(
  events: GatewayEvent[],
  type: T,
): Extract<GatewayEvent, { type: T }>[] {
  return events.filter((event): event is Extract<GatewayEvent, { type: T }> => event.type === type);
}

/** Every capability a model may list (`GET /models`). */
export const ALL_CAPABILITIES = ['chat', 'streaming', 'tools', 'json_object', 'json_schema'];

/**
 * `fetch`, which serves chat answers only, also answering `GET /models` with `ids` (each with every
 * capability): core gates every chat call against the catalog, so a stub gateway needs one.
 */
export function withCatalog(
  fetch: typeof globalThis.fetch,
  ids: readonly string[] = ['m'],
): typeof globalThis.fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url).pathname.endsWith('/models')) {
      const data = ids.map((id) => ({
        id,
        object: 'model',
        owned_by: 'service-community',
        kind: 'chat',
        capabilities: ALL_CAPABILITIES,
      }));
      return Promise.resolve(Response.json({ object: 'list', data }));
    }
    return fetch(input, init);
  };
}
