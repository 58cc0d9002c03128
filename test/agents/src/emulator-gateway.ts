import { type RunningEmulator, startEmulator } from '@infergate/emulator';

/** A model of the emulator's default scenario that offers everything (tools, json_schema). */
export const MODEL = 'community/general';

/**
 * Starts the emulator's real HTTP server and points the adapters' environment defaults
 * (`INFERGATE_BASE_URL`, `INFERGATE_API_KEY`) at it, as a user's deployment would.
 */
export async function startGateway(): Promise<RunningEmulator> {
  const server = await startEmulator();
  process.env.INFERGATE_BASE_URL = server.url;
  process.env.INFERGATE_API_KEY = server.apiKey;
  return server;
}

/** Chat completions the emulator has answered since the last `resetCounters()`. */
export const chatCalls = (server: RunningEmulator) => server.emulator.counters.requests.chat;
