import { createEmulator, DEFAULT_KEYS, type ScenarioInput } from '@infergate/emulator';

export const BASE_URL = 'https://gateway.test/v1';
export const API_KEY = DEFAULT_KEYS.full;

/** A fresh emulator and the connection fields that reach it through its fetch handler. */
export function gateway(scenario?: ScenarioInput, apiKey: string = API_KEY) {
  const emulator = createEmulator(scenario);
  const fetch: typeof globalThis.fetch = (input, init) => emulator.fetch(new Request(input, init));
  return { emulator, connection: { baseURL: BASE_URL, apiKey, fetch } };
}

/** Like `gateway`, and records every chat request body. */
export function recordingGateway(scenario?: ScenarioInput) {
  const { emulator, connection } = gateway(scenario);
  const chatBodies: Record<string, unknown>[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/chat/completions')) chatBodies.push(await request.clone().json());
    return emulator.fetch(request);
  };
  return { emulator, chatBodies, connection: { ...connection, fetch } };
}
