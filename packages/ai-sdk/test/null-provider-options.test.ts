// `providerOptions.infergate` with an option set to `null` (as ai's own call settings and its
// users pass an unset value) refused the call (`streamUsage is null; allowed: true or false`, core's
// `fallbackModels … got null`). A known option's `null` is now not given: the provider's or the
// model's value applies and nothing of it is sent. A typo's key is still refused, `null` or not.
// (`reasoningEffort: null` stays refused, saying why: reasoning-effort.test.ts.)

import { InvalidArgumentError } from '@ai-sdk/provider';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { embedMany, generateText, streamText, experimental_transcribe as transcribe } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { gatewayThrough } from './providers';

const gateway = await emulate({ hooks: { afterEach, afterAll } });

/** A provider on the emulator that keeps each POST's JSON body (a form's field names). */
function recording() {
  const bodies: Record<string, unknown>[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST') {
      const type = request.headers.get('content-type') ?? '';
      if (type.includes('json')) bodies.push(await request.clone().json());
      else bodies.push(Object.fromEntries((await request.clone().formData()).entries()));
    }
    return gateway.fetch(request);
  };
  return { bodies, provider: gatewayThrough(gateway, fetch) };
}

/** ai's types for provider options are JSON values: a JavaScript caller's `null`s pass as these. */
const infergate = (options: Record<string, unknown>) => ({ infergate: options as never });

const CHAT_NULLS = {
  streamUsage: null,
  textVerbosity: null,
  strictJsonSchema: null,
  fallbackModels: null,
  firstChunkTimeoutMs: null,
  chunkTimeoutMs: null,
  hedge: null,
  structuredOutput: null,
};

describe('null provider options are not given', () => {
  it('generateText and streamText: answered, no null and no option sent', async () => {
    const { bodies, provider } = recording();
    const model = provider('community/general');
    const providerOptions = infergate(CHAT_NULLS);
    const whole = await generateText({ model, prompt: 'hi', maxRetries: 0, providerOptions });
    expect(whole.text).toBe('Echo: hi');
    const streamed = streamText({ model, prompt: 'hi', maxRetries: 0, providerOptions });
    expect(await streamed.text).toBe('Echo: hi');
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(Object.values(body)).not.toContain(null);
      for (const name of [...Object.keys(CHAT_NULLS), 'verbosity', 'stream_usage']) {
        expect(body).not.toHaveProperty(name);
      }
    }
    // `streamUsage: null` is the provider's (true): the stream still asks for usage.
    expect(bodies[1]?.stream_options).toEqual({ include_usage: true });
  });

  it('embedMany: inputType and dimensions null, not sent', async () => {
    const { bodies, provider } = recording();
    const { embeddings } = await embedMany({
      model: provider.embeddingModel('multilingual-e5-base'),
      values: ['a', 'b'],
      maxRetries: 0,
      providerOptions: infergate({ inputType: null, dimensions: null }),
    });
    expect(embeddings).toHaveLength(2);
    expect(bodies).toEqual([{ model: 'multilingual-e5-base', input: ['a', 'b'] }]);
  });

  it('transcribe: language and translate null, not sent', async () => {
    const { bodies, provider } = recording();
    const result = await transcribe({
      model: provider.transcriptionModel(),
      audio: wavWithSpeech('nothing set'),
      providerOptions: infergate({ language: null, translate: null }),
    });
    expect(result.text).toBe('nothing set');
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).not.toHaveProperty('language');
    expect(bodies[0]).not.toHaveProperty('translate');
  });

  it('a near miss set to null is still refused, nothing sent', async () => {
    const { bodies, provider } = recording();
    const refusals = [
      generateText({
        model: provider('community/general'),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: infergate({ fallbackModel: null }),
      }),
      embedMany({
        model: provider.embeddingModel('multilingual-e5-base'),
        values: ['a'],
        maxRetries: 0,
        providerOptions: infergate({ inputTyp: null }),
      }),
      transcribe({
        model: provider.transcriptionModel(),
        audio: wavWithSpeech('x'),
        providerOptions: infergate({ languag: null }),
      }),
    ];
    for (const refused of refusals) {
      const error = await refused.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('did you mean');
    }
    expect(bodies).toEqual([]);
  });
});
