import { type RunningEmulator, startEmulator } from '@infergate/emulator';

/**
 * The gateway every runtime calls: its real HTTP server on loopback, slow enough that concurrent
 * calls overlap (each stream lasts about a second).
 */
export function startGateway(options: { cors?: true | string[] } = {}): Promise<RunningEmulator> {
  return startEmulator({
    scenario: { streamChunkDelayMs: 10, latencyMs: { min: 20, max: 60 } },
    ...options,
  });
}
