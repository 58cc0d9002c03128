import {
  createEmulator,
  DEFAULT_KEYS,
  type Emulator,
  type ScenarioInput,
} from '@infergate/emulator';

export const BASE_URL = 'https://gateway.test/v1';
export const API_KEY = DEFAULT_KEYS.full;

export interface GatewayOptions {
  apiKey?: string;
  /** A host of its own keeps the key's in-process concurrency budget apart from other tests'. */
  baseURL?: string;
  /**
   * Sees each request (a copy) before the emulator; a Response it returns is the answer instead of
   * the emulator's.
   */
  intercept?: (request: Request, emulator: Emulator) => Promise<Response | undefined>;
}

/** A fresh emulator and the connection fields that reach it through its fetch handler. */
export function gateway(scenario?: ScenarioInput, options: GatewayOptions = {}) {
  const { apiKey = API_KEY, baseURL = BASE_URL, intercept } = options;
  const emulator = createEmulator(scenario);
  const fetch: typeof globalThis.fetch = intercept
    ? async (input, init) => {
        const request = new Request(input, init);
        return (await intercept(request.clone(), emulator)) ?? emulator.fetch(request);
      }
    : emulator.fetch;
  return { emulator, connection: { baseURL, apiKey, fetch } };
}

/** Like `gateway`, and records the JSON body of every request to `path` (chat completions by default). */
export function recordingGateway<Body = Record<string, unknown>>(
  scenario?: ScenarioInput,
  path = '/chat/completions',
) {
  const bodies: Body[] = [];
  const { emulator, connection } = gateway(scenario, {
    intercept: async (request) => {
      if (request.url.endsWith(path)) bodies.push(await request.json());
      return undefined;
    },
  });
  return { emulator, bodies, connection };
}

/** Bytes as base64, as a model passes a file in a tool call. */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The error `promise` rejects with; fails the test when it fulfils. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}
