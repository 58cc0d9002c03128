// A streamed call that fails writes its failure one way (convert-gateway-chat-stream.ts,
// `GatewayStreamParts.failed`): an answer core's schema check refused before any of it was passed
// on, and a stream the gateway broke off midway, end in the same parts of streamText's fullStream
// (ai@7 and ai@6): the error, then the step's and the call's finish with reason `error` and the
// usage spent.

import { emulate } from '@infergate/emulator/testing';
import * as ai7 from 'ai';
import * as ai6 from 'ai-v6';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { InvalidStructuredOutputError } from '../src';
import { providersOn } from './providers';

/** Serves `json_schema`, its JSON always between two sentences (refused by core's check). */
const PROSE = 'community/json-prose';
const STREAMER = 'community/general';

const emulated = await emulate({
  scenario: {
    models: {
      [PROSE]: {
        owned_by: 'service-community',
        capabilities: ['chat', 'streaming', 'json_schema'],
        online: true,
        jsonAnswers: { wrap: 'prose' },
      },
      [STREAMER]: {
        owned_by: 'service-community',
        capabilities: ['chat', 'streaming'],
        online: true,
      },
    },
  },
  hooks: { afterEach, afterAll },
});
const { gateway, gatewayV3 } = providersOn(emulated);

/** The parts of a failure: their type, their keys, and the finish reason. */
type Shape = { type: string; keys: string[]; finishReason?: unknown };

/** The parts from the first `error` on, as shapes (content parts before it differ by design). */
async function failureShapes(parts: AsyncIterable<{ type: string }>): Promise<Shape[]> {
  const all: { type: string }[] = [];
  for await (const part of parts) all.push(part);
  const failure = all.slice(all.findIndex((part) => part.type === 'error'));
  return failure.map((part) => {
    const { finishReason } = part as { finishReason?: unknown };
    return {
      type: part.type,
      keys: Object.keys(part).sort(),
      ...(finishReason !== undefined ? { finishReason } : {}),
    };
  });
}

describe.each([
  { name: 'ai@7', ai: ai7, provider: gateway },
  { name: 'ai@6 (/v6)', ai: ai6 as unknown as typeof ai7, provider: gatewayV3 },
])('$name streamText: a failed stream ends in the same parts', ({ ai, provider }) => {
  const model = (id: string) => provider({ fetch: emulated.fetch, circuitBreaker: false })(id);

  it('a refused structured answer and a stream broken off midway', async () => {
    let refusedError: unknown;
    const refused = ai.streamText({
      model: model(PROSE),
      prompt: 'Where is "Kyiv"?',
      output: ai.Output.object({ schema: z.object({ city: z.string() }) }),
      maxRetries: 0,
      onError: ({ error }) => {
        refusedError = error;
      },
    });
    const refusedShapes = await failureShapes(refused.fullStream);

    emulated.emulator.injectFault({ fault: 'stream_error', model: STREAMER, afterChunks: 2 });
    const broken = ai.streamText({
      model: model(STREAMER),
      prompt: 'Say something long',
      maxRetries: 0,
      onError: () => {},
    });
    const brokenShapes = await failureShapes(broken.fullStream);

    expect(refusedShapes.map((shape) => shape.type)).toEqual(['error', 'finish-step', 'finish']);
    expect(refusedShapes).toEqual(brokenShapes);
    // The refusal's error is mapped as any stream failure's: by the model's one mapError.
    expect(InvalidStructuredOutputError.isInstance(refusedError)).toBe(true);
    // Both spent tokens: the usage is reported either way.
    expect((await refused.usage).outputTokens).toBeGreaterThan(0);
    expect(await refused.finishReason).toBe('error');
    expect(await broken.finishReason).toBe('error');
  });
});
