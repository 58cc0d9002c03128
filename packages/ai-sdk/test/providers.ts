import {
  createEmulator,
  DEFAULT_KEYS,
  type Emulator,
  type ScenarioInput,
} from '@infergate/emulator';
import { gatewayHandlers } from '@infergate/emulator/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createGateway, type GatewayProviderSettings } from '../src';
import { createGateway as createGatewayV3 } from '../src/v6';

export const BASE_URL = 'https://gateway.test/v1';

/**
 * Runs the emulator behind msw for the test file: every `fetch` to BASE_URL reaches
 * `emulator.fetch`. Counters and faults are reset after each test.
 */
export function useEmulator(scenario?: ScenarioInput) {
  const emulator: Emulator = createEmulator(scenario);
  const server = setupServer(...gatewayHandlers(emulator, BASE_URL));

  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => {
    emulator.clearFaults();
    emulator.resetCounters();
  });
  afterAll(() => server.close());

  const settingsFor = (settings: GatewayProviderSettings): GatewayProviderSettings => ({
    baseURL: BASE_URL,
    apiKey: DEFAULT_KEYS.full,
    ...settings,
  });
  /** A fresh provider (own client and catalog cache) for the emulator. */
  const gateway = (settings: GatewayProviderSettings = {}) => createGateway(settingsFor(settings));
  /** The same, from `/v6` (AI SDK 6). */
  const gatewayV3 = (settings: GatewayProviderSettings = {}) =>
    createGatewayV3(settingsFor(settings));

  return { emulator, gateway, gatewayV3 };
}

/**
 * Provider settings whose fetch keeps the JSON body of each chat request it sends (msw then
 * answers it), with `settings` merged in.
 */
export function recordingChatBodies(settings: GatewayProviderSettings = {}) {
  const bodies: Record<string, unknown>[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/chat/completions')) bodies.push(await request.clone().json());
    return globalThis.fetch(request);
  };
  return { bodies, settings: { ...settings, fetch } };
}
