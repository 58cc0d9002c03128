// A hedge a model's settings and a call's `providerOptions.infergate` leave unsent together is
// refused at the call before any request, each value named as whose it is (the model's setting,
// not "the call's").
import { emulate } from '@infergate/emulator/testing';
import { generateText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { recordingGatewayOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { bodies, gateway } = recordingGatewayOn(emulated);

describe("a hedge the model's settings and the call's leave unsent", () => {
  it.each([
    [
      { firstChunkTimeoutMs: 100 },
      { hedge: { afterMs: 500 } },
      "(500, the call's) is not less than firstChunkTimeoutMs (100, the model's)",
    ],
    [
      { hedge: { afterMs: 500 } },
      { firstChunkTimeoutMs: 100 },
      "(500, the model's) is not less than firstChunkTimeoutMs (100, the call's)",
    ],
  ])('model %o, call %o: each value named', async (settings, infergate, message) => {
    const model = gateway()('community/general', settings);
    const error = await generateText({
      model,
      prompt: 'hi',
      maxRetries: 0,
      providerOptions: { infergate },
    }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toContain(message);
    expect(bodies).toEqual([]);
  });
});
