// One rule for a value set both by an ai call option and in providerOptions.infergate, embeddings
// and chat alike: the provider option is sent (it refines the generic one, as
// @ai-sdk/openai-compatible has it); a key that cannot apply (`model`, `messages`, `stream`) is
// refused before anything is sent, never dropped. (`reasoning_effort` is the other way round:
// reasoning-effort-precedence.test.ts.)
import { embed, generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw, recordingChatBodies, refusedBeforeSending } from './providers';

const { gateway } = await providersOnMsw();

describe('a field set both as a call option and in providerOptions.infergate', () => {
  it("embed sends providerOptions.infergate.dimensions over the call's dimensions", async () => {
    const bodies: Record<string, unknown>[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.url.endsWith('/embeddings')) bodies.push(await request.clone().json());
      return globalThis.fetch(request);
    };
    const { embedding, warnings } = await embed({
      model: gateway({ fetch }).embeddingModel('multilingual-e5-base'),
      value: 'a b',
      dimensions: 256,
      providerOptions: { infergate: { dimensions: 512 } },
    });
    expect(bodies.map((body) => body.dimensions)).toEqual([512]);
    expect(embedding).toHaveLength(512);
    expect(warnings).toEqual([]);
    // The call option alone is still sent.
    const alone = await embed({
      model: gateway({ fetch }).embeddingModel('multilingual-e5-base'),
      value: 'a b',
      dimensions: 256,
    });
    expect(alone.embedding).toHaveLength(256);
  });

  it.each([
    {
      name: 'the provider option over temperature, maxOutputTokens, seed, topP, stop and penalties',
      callOptions: {
        temperature: 0.1,
        maxOutputTokens: 10,
        seed: 1,
        topP: 0.2,
        stopSequences: ['A'],
        presencePenalty: 0.3,
        frequencyPenalty: 0.4,
      },
      infergate: {
        temperature: 0.9,
        max_tokens: 99,
        seed: 7,
        top_p: 0.8,
        stop: ['B'],
        presence_penalty: 0.5,
        frequency_penalty: 0.6,
      },
    },
  ])('a chat call sends $name', async ({ callOptions, infergate }) => {
    const { bodies, settings } = recordingChatBodies();
    await generateText({
      model: gateway(settings)('community/general'),
      prompt: 'x',
      ...callOptions,
      providerOptions: { infergate },
    });
    // Each provider option sent as given, none of the call's own values.
    expect(bodies[0]).toMatchObject({ model: 'community/general', ...infergate });
  });

  it.each([
    ['model', 'community/tools', /model factory/],
    ['messages', [{ role: 'user', content: 'y' }], /prompt/],
    ['stream', true, /set by the call/],
  ])(
    'refuses providerOptions.infergate.%s, which cannot apply, before sending',
    (key, value, hint) =>
      refusedBeforeSending(`providerOptions.infergate.${key}`, hint, (settings) =>
        generateText({
          model: gateway(settings)('community/general'),
          prompt: 'x',
          maxRetries: 0,
          providerOptions: { infergate: { [key]: value } },
        }),
      ),
  );
});
