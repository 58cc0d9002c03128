// A streamed call that fails writes its failure one way (convert-gateway-chat-stream.ts,
// `GatewayStreamParts.failed`): a stream the gateway broke off midway ends in these parts of
// streamText's fullStream (ai@7 and ai@6): the error, then the step's and the call's finish with
// reason `error` and the usage spent. A schema call's last answer that core's check refuses is no
// failure of the stream: core hands it on (`lastAnswer: 'returned'`) and ai refuses it itself, as
// it does any provider's, so the stream finishes as any answer does.

import { emulate, WRAPPED_JSON_MODELS, withWrappedJsonModels } from '@infergate/emulator/testing';
import * as ai7 from 'ai';
import * as ai6 from 'ai-v6';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { providersOn } from './providers';

/** Serves `json_schema`, its JSON always between two sentences (refused by core's check). */
const PROSE = WRAPPED_JSON_MODELS.prose;
const STREAMER = 'community/general';

const emulated = await emulate({
  scenario: withWrappedJsonModels(),
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
])('$name streamText: how a failed stream ends', ({ ai, provider }) => {
  const model = (id: string) => provider({ fetch: emulated.fetch, circuitBreaker: false })(id);

  it('a stream broken off midway; a structured answer core refused finishes as any answer', async () => {
    const errors: unknown[] = [];
    const refused = ai.streamText({
      model: model(PROSE),
      prompt: 'Where is "Kyiv"?',
      output: ai.Output.object({ schema: z.object({ city: z.string() }) }),
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const refusedParts: string[] = [];
    for await (const part of refused.fullStream) refusedParts.push(part.type);

    emulated.emulator.injectFault({ fault: 'stream_error', model: STREAMER, afterChunks: 2 });
    const broken = ai.streamText({
      model: model(STREAMER),
      prompt: 'Say something long',
      maxRetries: 0,
      onError: () => {},
    });
    const brokenShapes = await failureShapes(broken.fullStream);

    expect(brokenShapes.map((shape) => shape.type)).toEqual(['error', 'finish-step', 'finish']);
    expect(await broken.finishReason).toBe('error');
    // The refused answer's text reached ai, which refuses it (its `output`), not the stream.
    expect(refusedParts).not.toContain('error');
    expect(refusedParts.slice(-2)).toEqual(['finish-step', 'finish']);
    expect(errors).toEqual([]);
    expect(await refused.finishReason).toBe('stop');
    // Its tokens were spent: the usage is reported.
    expect((await refused.usage).outputTokens).toBeGreaterThan(0);
  });

  it("a steered stream broken off after its content: providerMetadata's route ends with the failure (rv-steer F9)", async () => {
    emulated.emulator.injectFault({ fault: 'stream_error', model: STREAMER, afterChunks: 2 });
    const broken = ai.streamText({
      model: provider({ fetch: emulated.fetch, circuitBreaker: false })(STREAMER, {
        fallbackModels: [PROSE],
      }),
      prompt: 'Say something long',
      maxRetries: 0,
      onError: () => {},
    });
    let failure: unknown;
    for await (const part of broken.fullStream) if (part.type === 'error') failure = part.error;
    const route = (failure as { data?: { route?: { hops: unknown[] } } }).data?.route;
    const metadata = (await broken.providerMetadata)?.infergate as { route?: { hops: unknown[] } };
    expect(route?.hops).toMatchObject([{ model: STREAMER, outcome: 'ended' }]);
    expect(metadata.route?.hops).toEqual(route?.hops);
  });
});
