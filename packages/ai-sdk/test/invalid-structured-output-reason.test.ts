// Core's `invalid_structured_output` says why the answer failed (`invalidOutput.reason`): the AI
// SDK's InvalidStructuredOutputError carries it as `reason`, e.g. `'refused'` for a streamed
// structured answer whose model declined after its JSON (OpenAI's `refusal` after the finish
// chunk: no answer is handed on), so a caller tells a refusal (reword, ask another model) from a
// cut or a schema break without reading the message.
import { choiceZeroChunk as chunk, streamedAnswer } from '@infergate/emulator/testing';
import * as ai from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { InvalidStructuredOutputError } from '../src';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();

describe("InvalidStructuredOutputError: core's reason", () => {
  it("a structured answer refused after its finish chunk: reason 'refused'", async () => {
    const fetch = answeringChats((body) =>
      streamedAnswer(body.model, [
        chunk({ role: 'assistant', content: '{"city":"Oslo"}' }),
        chunk({}, 'stop'),
        chunk({ refusal: 'Sorry' }),
      ]),
    );
    const errors: unknown[] = [];
    const result = ai.streamText({
      model: gateway({ fetch, circuitBreaker: false })('community/json-schema'),
      output: ai.Output.object({ schema: z.object({ city: z.string() }) }),
      prompt: 'Where?',
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await result.consumeStream();
    const [error] = errors;
    expect(InvalidStructuredOutputError.isInstance(error), String(error)).toBe(true);
    const { reason, method } = error as InvalidStructuredOutputError;
    expect({ reason, method }).toEqual({ reason: 'refused', method: 'json_schema' });
  });
});
