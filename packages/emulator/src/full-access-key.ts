// docs/gateway-protocol.md §2.2 (the key a client sends).
import { DEFAULT_KEYS } from './default-scenario';
import type { Scenario } from './scenario';

/**
 * The key handed to a client when none is asked for (`startEmulator`'s, the CLI's, `emulate`'s in
 * every mode): the full default key when the scenario has it, else its most capable key.
 */
export function fullAccessKey(scenario: Scenario): string {
  const keys = Object.entries(scenario.keys);
  const full = keys.find(([key]) => key === DEFAULT_KEYS.full);
  const best =
    full ??
    keys.find(([, s]) => s.allowUnshielded && s.offlineFallback && !s.allowedModels) ??
    keys.find(([, s]) => s.allowUnshielded && !s.allowedModels) ??
    keys[0];
  if (!best) throw new Error('The scenario has no API keys');
  return best[0];
}
