// Reasoning effort (docs/gateway-protocol.md §4.1): ai@7's `reasoning` call option and
// `providerOptions.infergate.reasoningEffort` (ai@7 and ai@6) are sent as `reasoning_effort`.

import { InvalidArgumentError } from '@ai-sdk/provider';
import { caught, emulate } from '@infergate/emulator/testing';
import { generateText, streamText } from 'ai';
import { generateText as generateTextV6, streamText as streamTextV6 } from 'ai-v6';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn, recordingChatBodies } from './providers';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway, gatewayV3 } = providersOn(emulated);

const recording = recordingChatBodies;

/** What a generateText call of `model` with `more` of its options fails with (no retries). */
const refusal = (
  model: string,
  more: Pick<Parameters<typeof generateText>[0], 'reasoning' | 'providerOptions'>,
) => caught(generateText({ model: gateway()(model), prompt: 'hi', maxRetries: 0, ...more }));

describe('reasoning effort', () => {
  it('ai@7: the reasoning call option is sent as reasoning_effort, with no warning', async () => {
    const { bodies, settings } = recording();
    const result = await generateText({
      model: gateway(settings)('community/reasoner'),
      prompt: 'Is 7 prime?',
      reasoning: 'high',
    });
    expect(bodies[0]?.reasoning_effort).toBe('high');
    expect(result.warnings ?? []).toEqual([]);

    const streamed = streamText({
      model: gateway(settings)('community/reasoner'),
      prompt: 'Is 7 prime?',
      reasoning: 'none',
    });
    await streamed.consumeStream();
    expect(bodies[1]?.reasoning_effort).toBe('none');
    expect(await streamed.warnings).toEqual([]);
  });

  it("ai@7: 'provider-default' sends nothing; 'max' is sent as 'xhigh' with a compatibility warning", async () => {
    const { bodies, settings } = recording();
    await generateText({
      model: gateway(settings)('community/reasoner'),
      prompt: 'hi',
      reasoning: 'provider-default',
    });
    expect(bodies[0]).not.toHaveProperty('reasoning_effort');
    const result = await generateText({
      model: gateway(settings)('community/reasoner'),
      prompt: 'hi',
      reasoning: 'max',
    });
    expect(bodies[1]?.reasoning_effort).toBe('xhigh');
    expect(result.warnings).toContainEqual(
      expect.objectContaining({ type: 'compatibility', feature: 'reasoning' }),
    );
  });

  it('providerOptions.infergate.reasoningEffort is sent as given, over reasoning, and not as its own field', async () => {
    const { bodies, settings } = recording();
    await generateText({
      model: gateway(settings)('community/reasoner'),
      prompt: 'hi',
      reasoning: 'low',
      providerOptions: { infergate: { reasoningEffort: 'max' } },
    });
    expect(bodies[0]?.reasoning_effort).toBe('max');
    expect(bodies[0]).not.toHaveProperty('reasoningEffort');
  });

  it('ai@6 (/v6): providerOptions.infergate.reasoningEffort, generateText and streamText', async () => {
    const { bodies, settings } = recording();
    const model = gatewayV3(settings)('community/reasoner');
    const providerOptions = { infergate: { reasoningEffort: 'medium' } };
    const answer = await generateTextV6({ model, prompt: 'hi', providerOptions });
    expect(answer.warnings ?? []).toEqual([]);
    await streamTextV6({ model, prompt: 'hi', providerOptions }).consumeStream();
    expect(bodies.map((body) => body.reasoning_effort)).toEqual(['medium', 'medium']);
  });

  it.each([
    [
      'a reasoningEffort that is not a string is an InvalidArgumentError naming it; nothing is sent',
      3,
    ],
    [
      'reasoningEffort: null is refused, saying a null is not sent (core drops a null reasoning_effort)',
      null,
    ],
  ])('%s', async (_name, reasoningEffort) => {
    const error = await refusal('community/reasoner', {
      providerOptions: { infergate: { reasoningEffort } },
    });
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).message).toBe(
      `providerOptions.infergate.reasoningEffort is ${reasoningEffort}; allowed: a string such as "low", "medium" or "high" (null is not sent: leave it out)`,
    );
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('a reasoning call option that is not a level is an InvalidArgumentError naming reasoning; nothing is sent', async () => {
    const error = await refusal('community/reasoner', { reasoning: 2 as unknown as 'low' });
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe('reasoning');
    expect(emulator.counters.requests.chat).toBe(0);
  });
});

describe('textVerbosity and user (the other options of @ai-sdk/openai-compatible)', () => {
  it('textVerbosity is sent as verbosity (over a raw verbosity), user as user: generateText and streamText', async () => {
    const { bodies, settings } = recording();
    const model = gateway(settings)('community/general');
    const providerOptions = { infergate: { textVerbosity: 'low', user: 'u-1' } };
    const answer = await generateText({ model, prompt: 'hi', providerOptions });
    expect(answer.warnings ?? []).toEqual([]);
    const streamed = streamText({
      model,
      prompt: 'hi',
      providerOptions: { infergate: { ...providerOptions.infergate, verbosity: 'high' } },
    });
    await streamed.consumeStream();
    expect(await streamed.warnings).toEqual([]);
    for (const body of bodies) {
      expect(body).toMatchObject({ verbosity: 'low', user: 'u-1' });
      expect(body).not.toHaveProperty('textVerbosity');
    }
    expect(bodies).toHaveLength(2);
  });

  it('a textVerbosity that is not a string, or text_verbosity, is refused naming it; nothing is sent', async () => {
    for (const [infergate, message] of [
      [{ textVerbosity: 1 }, 'providerOptions.infergate.textVerbosity is 1; allowed: a string'],
      [{ text_verbosity: 'low' }, 'textVerbosity'],
    ] as const) {
      const error = await refusal('community/general', { providerOptions: { infergate } });
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).message).toContain(message);
    }
    expect(emulator.counters.requests.chat).toBe(0);
  });
});
