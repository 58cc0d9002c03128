import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_KEYS } from '../src/index';
import { type EmulateAs, type EmulatedGateway, emulate } from '../src/testing/index';

// `emulate()` hands out the same default key in every mode, by one rule (startEmulator's):
// `DEFAULT_KEYS.full` when the scenario has it, else the scenario's most capable key.

const opened: EmulatedGateway[] = [];
afterEach(async () => {
  for (const gateway of opened.splice(0)) await gateway.close();
});

const MODES: EmulateAs[] = ['fetch', 'msw', 'http'];

async function modelsStatus(as: EmulateAs, scenario?: Parameters<typeof emulate>[0]) {
  const gateway = await emulate({ as, ...scenario });
  opened.push(gateway);
  const response = await gateway.fetch(`${gateway.baseURL}/models`, {
    headers: { authorization: `Bearer ${gateway.apiKey}` },
  });
  return { apiKey: gateway.apiKey, status: response.status };
}

describe("emulate()'s default apiKey", () => {
  it.each(MODES)('is a key of a scenario without the full default key (%s)', async (as) => {
    const keys = {
      [DEFAULT_KEYS.full]: null,
      'my-key': { allowUnshielded: true, offlineFallback: true },
    };
    expect(await modelsStatus(as, { scenario: { keys } })).toEqual({
      apiKey: 'my-key',
      status: 200,
    });
  });

  it.each(MODES)('is DEFAULT_KEYS.full by default (%s)', async (as) => {
    expect(await modelsStatus(as)).toEqual({ apiKey: DEFAULT_KEYS.full, status: 200 });
  });

  it.each(MODES)('is the apiKey option when given (%s)', async (as) => {
    const result = await modelsStatus(as, { apiKey: DEFAULT_KEYS.shielded });
    expect(result).toEqual({ apiKey: DEFAULT_KEYS.shielded, status: 200 });
  });
});
