// A near miss of a call setting by its words, not only its letters (core's `sameWords`): in
// `providerOptions.infergate`, whose other keys are request fields sent to the model server,
// `fallbacks`, `hedgeAfterMs` or `maxRetry` is refused before anything is sent, naming the setting
// meant, not sent as a body field; the fields users send (`top_k`, `seed`, `user`, …) still are.
import { InvalidArgumentError } from '@ai-sdk/provider';
import { emulate } from '@infergate/emulator/testing';
import { generateText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { recordingGatewayOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { bodies, gateway } = recordingGatewayOn(emulated);

describe('providerOptions.infergate', () => {
  it.each([
    ['fallbacks', ['community/plain'], 'fallbackModels'],
    ['fallback', 'community/plain', 'fallbackModels'],
    ['hedging', { afterMs: 100 }, 'hedge'],
    ['hedgeAfterMs', 100, 'hedge'],
    ['maxRetry', 1, 'maxRetries'],
  ])('refuses %s before sending, naming the setting meant', async (key, value, meant) => {
    const error = await generateText({
      model: gateway()('community/general'),
      prompt: 'hello',
      maxRetries: 0,
      providerOptions: { infergate: { [key]: value } },
    }).catch((failure: unknown) => failure);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: `providerOptions.infergate.${key}` });
    expect((error as Error).message).toContain(`did you mean \`${meant}\`?`);
    expect(bodies).toEqual([]);
  });

  it('sends the request fields users give (top_k, repetition_penalty, seed, user, metadata, …)', async () => {
    const fields = {
      top_k: 4,
      repetition_penalty: 1.1,
      reasoning_effort: 'low',
      seed: 7,
      user: 'u-1',
      metadata: { m: '1' },
      parallel_tool_calls: false,
      models: ['community/plain'],
      reasoning: { effort: 'low' },
    };
    const result = await generateText({
      model: gateway()('community/general'),
      prompt: 'hello',
      providerOptions: { infergate: fields },
    });
    expect(result.text).toContain('hello');
    // (`parallel_tool_calls` is sent only with tools: parallel-tool-calls-field-only-with-tools.test.ts.)
    const { parallel_tool_calls: _withToolsOnly, ...sent } = fields;
    expect(bodies[0]).toMatchObject(sent);
  });
});
