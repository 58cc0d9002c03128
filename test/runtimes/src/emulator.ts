import type { ScenarioInput } from '@infergate/emulator';

/**
 * The scenario of the gateway every runtime calls (`emulate({ as: 'http', scenario: OVERLAPPING })`):
 * slow enough that concurrent calls overlap (each stream lasts about a second).
 */
export const OVERLAPPING: ScenarioInput = {
  streamChunkDelayMs: 10,
  latencyMs: { min: 20, max: 60 },
};
