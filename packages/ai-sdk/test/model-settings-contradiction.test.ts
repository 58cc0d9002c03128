// A model's hedge that its own stall timeout leaves unsent is refused when the model is made
// (`gateway(id, settings)`: core's `readSteering` checks a model's settings together, as a client's
// at creation), a `LoadSettingError` naming the setting, not an `InvalidArgumentError` at each call.
import { LoadSettingError } from '@ai-sdk/provider';
import { emulate } from '@infergate/emulator/testing';
import { generateText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { recordingGatewayOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { bodies, gateway } = recordingGatewayOn(emulated);

describe('gateway(id, { hedge, firstChunkTimeoutMs }) that contradict', () => {
  it('is refused when the model is made, as a model setting', () => {
    let error: unknown;
    try {
      gateway()('community/general', { hedge: { afterMs: 500 }, firstChunkTimeoutMs: 100 });
    } catch (thrown) {
      error = thrown;
    }
    expect(LoadSettingError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(
      'hedge.afterMs (model setting) (500) is not less than firstChunkTimeoutMs (100)',
    );
    expect(bodies).toEqual([]);
  });

  it('a hedge due before the stall timeout is taken', async () => {
    const model = gateway()('community/general', {
      hedge: { afterMs: 100 },
      firstChunkTimeoutMs: 500,
    });
    const result = await generateText({ model, prompt: 'hello' });
    expect(result.text).toContain('hello');
  });
});
