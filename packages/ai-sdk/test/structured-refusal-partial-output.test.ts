// streamText + Output.object on a streamed refused answer (OpenAI's `refusal`) whose JSON is
// unfinished: the refusal's words come as they were sent, so a refusal before the JSON never
// lands inside a partial object (as @ai-sdk/openai-compatible gives them: no partial), and the
// stream finishes content-filter. A refusal after the finish chunk is no valid object either.
import {
  choiceZeroChunk as chunk,
  type StreamChunk,
  streamedAnswer,
} from '@infergate/emulator/testing';
import * as ai from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const Place = z.object({ city: z.string() });

/** streamText (Output.object) on `community/json-schema` answering `chunks`. */
function streaming(chunks: StreamChunk[]) {
  const fetch = answeringChats((body) => streamedAnswer(body.model, chunks));
  return ai.streamText({
    model: gateway({ fetch, circuitBreaker: false })('community/json-schema'),
    output: ai.Output.object({ schema: Place }),
    prompt: 'Where?',
    maxRetries: 0,
    onError: () => {},
  });
}

describe('streamText on a refused answer: the refusal never inside the JSON', () => {
  it('a refusal before unfinished JSON: no partial object carries its words', async () => {
    const result = streaming([
      chunk({ role: 'assistant', refusal: "Sorry, I can't" }),
      chunk({ content: '{"city":"Os' }),
      chunk({}, 'stop'),
    ]);
    const partials: unknown[] = [];
    for await (const partial of result.partialOutputStream) partials.push(partial);
    expect(JSON.stringify(partials)).not.toContain('Sorry');
    expect(await result.finishReason).toBe('content-filter');
  });

  it('a refusal after the finish chunk: no valid object', async () => {
    const result = streaming([
      chunk({ role: 'assistant', content: '{"city":"Oslo"}' }),
      chunk({}, 'stop'),
      chunk({ refusal: 'Sorry' }),
    ]);
    const output = await result.output.then(
      (value) => value,
      (caught: unknown) => caught,
    );
    expect(ai.NoObjectGeneratedError.isInstance(output)).toBe(true);
  });
});
