// generateText and streamText + Output.object on a refused answer (OpenAI's `refusal`), whole and
// streamed alike, on every method: NoObjectGeneratedError quoting the JSON then the refusal's
// words once (a `tools`-served refusal is its text, as @ai-sdk/openai-compatible reads it), its
// finish content-filter (also when the refusal came with a call); a refusal after fenced JSON is
// no valid object, as after unfenced JSON.
import { oneMessageAnswer } from '@infergate/emulator/testing';
import * as ai from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { answeringChats, type ChatBody, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const Place = z.object({ city: z.string() });
const REFUSAL = "I can't help with that.";

/** A fetch answering every chat request with `message` and `finish`, whole or streamed. */
const answering = (message: Record<string, unknown>, finish = 'stop') =>
  answeringChats((body: ChatBody) =>
    oneMessageAnswer(body.model, message, finish, body.stream === true),
  );

/** generateText's and streamText's failure (Output.object) on `model` answered by `fetch`. */
async function failures(model: string, fetch: typeof globalThis.fetch) {
  const options = {
    model: gateway({ fetch, circuitBreaker: false })(model),
    output: ai.Output.object({ schema: Place }),
    prompt: 'Where?',
    maxRetries: 0,
  };
  const whole = await ai.generateText(options).then(
    (result) => result.output,
    (caught: unknown) => caught,
  );
  const result = ai.streamText({ ...options, onError: () => {} });
  const streamed = await result.output.then(
    (output) => output,
    (caught: unknown) => caught,
  );
  const read = (error: unknown) => {
    expect(ai.NoObjectGeneratedError.isInstance(error), JSON.stringify(error)).toBe(true);
    const { text, finishReason } = error as ai.NoObjectGeneratedError;
    return { text, finishReason };
  };
  return { whole: read(whole), streamed: read(streamed) };
}

describe('Output.object on a refused answer: its words once, whole and streamed', () => {
  it('served by tools: the refusal is the text', async () => {
    const both = await failures('community/tools', answering({ content: null, refusal: REFUSAL }));
    const read = { text: REFUSAL, finishReason: 'content-filter' };
    expect(both).toEqual({ whole: read, streamed: read });
  });

  it('fenced JSON then a refusal is no object, as unfenced JSON then a refusal', async () => {
    for (const content of ['```json\n{"city":"Oslo"}\n```', '{"city":"Oslo"}']) {
      const both = await failures(
        'community/json-schema',
        answering({ content, refusal: REFUSAL }),
      );
      const read = { text: `{"city":"Oslo"}${REFUSAL}`, finishReason: 'content-filter' };
      expect(both).toEqual({ whole: read, streamed: read });
    }
  });

  it('a refusal with a call finishes content-filter both ways', async () => {
    const call = { id: 'c1', type: 'function', function: { name: 'p', arguments: '{}' } };
    const fetch = answering({ content: null, refusal: 'Sorry', tool_calls: [call] }, 'tool_calls');
    const both = await failures('community/json-schema', fetch);
    const read = { text: 'Sorry', finishReason: 'content-filter' };
    expect(both).toEqual({ whole: read, streamed: read });
  });
});
