// providerOptions.infergate that is no object is refused by a chat call as by embed (one check,
// InvalidArgumentError naming what is allowed); a call setting given on one message (a steering
// option) is refused rather than sent to the model server as a message field.
import { embed, generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw, recordingChatBodies } from './providers';

const { gateway } = await providersOnMsw();

describe('the shape of providerOptions.infergate in a chat call', () => {
  it.each([
    ['a string', 'fast', '"fast"'],
    ['an array', ['fallbackModels'], 'an array'],
    ['a number', 42, '42'],
  ])('refuses %s before sending, as embed does', async (_name, value, shown) => {
    const { bodies, settings } = recordingChatBodies();
    const provider = gateway(settings);
    const providerOptions = { infergate: value } as never;
    const chat = await generateText({
      model: provider('community/general'),
      prompt: 'x',
      maxRetries: 0,
      providerOptions,
    }).catch((failure: unknown) => failure);
    const embedding = await embed({
      model: provider.embeddingModel('multilingual-e5-base'),
      value: 'x',
      maxRetries: 0,
      providerOptions,
    }).catch((failure: unknown) => failure);
    for (const error of [chat, embedding]) {
      expect(error).toMatchObject({
        name: 'AI_InvalidArgumentError',
        argument: 'providerOptions.infergate',
      });
      expect((error as Error).message).toContain(
        `providerOptions.infergate is ${shown}; allowed: an object with`,
      );
    }
    expect(bodies).toEqual([]);
  });

  it.each([
    ['fallbackModels', ['community/tools']],
    ['chunkTimeoutMs', 100],
    ['streamUsage', false],
  ])(
    "refuses the call option %s on a message's providerOptions, not sent as a field",
    async (key, value) => {
      const { bodies, settings } = recordingChatBodies();
      const error = await generateText({
        model: gateway(settings)('community/general'),
        maxRetries: 0,
        messages: [
          { role: 'user', content: 'x', providerOptions: { infergate: { [key]: value } } },
        ],
      }).catch((failure: unknown) => failure);
      expect(error).toMatchObject({
        name: 'AI_InvalidArgumentError',
        argument: `message providerOptions.infergate.${key}`,
      });
      expect((error as Error).message).toContain("give it in the call's providerOptions.infergate");
      expect(bodies).toEqual([]);
    },
  );

  it("refuses a message's providerOptions.infergate that is no object (it would be spread into the message)", async () => {
    const error = await generateText({
      model: gateway()('community/general'),
      maxRetries: 0,
      messages: [{ role: 'user', content: 'x', providerOptions: { infergate: 'fast' as never } }],
    }).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ name: 'AI_InvalidArgumentError' });
    expect((error as Error).message).toContain(
      'is "fast"; allowed: an object of fields added to the message',
    );
  });

  // (An object there still adds a message's own fields to it: misplaced-provider-options.test.ts.)
});
