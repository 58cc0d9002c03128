import type { GatewayConnection } from '@infergate/emulator/testing';

/** A model of the emulator's default scenario that offers everything (tools, json_schema). */
export const MODEL = 'community/general';

/**
 * Points the adapters' environment defaults (`INFERGATE_BASE_URL`, `INFERGATE_API_KEY`) at the
 * emulator's HTTP server (`emulate({ as: 'http' })`), as a user's deployment would.
 */
export function pointEnvironmentAt(gateway: GatewayConnection): void {
  process.env.INFERGATE_BASE_URL = gateway.baseURL;
  process.env.INFERGATE_API_KEY = gateway.apiKey;
}
