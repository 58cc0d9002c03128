// A streamed structured call over a fallback list (docs/gateway-protocol.md §4.8 item 5), through
// ai's streamText with `Output.object` and streamObject, against the emulator: while a listed
// model is left after the one answering, core holds that model's stream to its end and checks it
// before anything reaches `ai`, so an answer that breaks the schema moves on to the next model, as
// generateText does. The rule is core's; the provider only maps.
import { CLAIMED_MODEL, emulate, withClaimedModel } from '@infergate/emulator/testing';
import { Output, streamObject, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createGateway } from '../src';

const emulated = await emulate({ scenario: withClaimedModel(), hooks: { afterEach, afterAll } });
const Place = z.object({ city: z.string() });
const QUESTION = 'Where is "Oslo"?';
const BOTH_STREAMED = [`${CLAIMED_MODEL} (stream)`, 'community/general (stream)'];

/** `community/claimed` (lists json_schema, answers off the schema) falling back to general. */
function claimedFirst() {
  const sent: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/chat/completions')) {
      const body = (await request.clone().json()) as { model: string; stream?: boolean };
      sent.push(`${body.model}${body.stream ? ' (stream)' : ''}`);
    }
    return emulated.fetch(request);
  };
  // A new client each test: its per-key state (the breakers) starts clean.
  const gateway = createGateway({ baseURL: emulated.baseURL, apiKey: emulated.apiKey, fetch });
  return { model: gateway(CLAIMED_MODEL, { fallbackModels: ['community/general'] }), sent };
}

describe('a streamed structured call over fallbackModels', () => {
  it('streamText + Output.object: an answer that fails the check moves on', async () => {
    const { model, sent } = claimedFirst();
    const errors: unknown[] = [];
    const result = streamText({
      model,
      output: Output.object({ schema: Place }),
      prompt: QUESTION,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const partials: unknown[] = [];
    for await (const partial of result.partialOutputStream) partials.push(partial);
    expect(errors).toEqual([]);
    expect(await result.output).toEqual({ city: 'Oslo' });
    // None of the refused answer reached `ai`: every partial is the fallback's.
    for (const partial of partials) expect(partial).toMatchObject({ city: expect.any(String) });
    expect((await result.response).modelId).toBe('community/general');
    expect(sent).toEqual(BOTH_STREAMED);
  });

  it('streamObject: the fallback model’s object', async () => {
    const { model, sent } = claimedFirst();
    const errors: unknown[] = [];
    const result = streamObject({
      model,
      schema: Place,
      prompt: QUESTION,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    for await (const _ of result.partialObjectStream) {
      // read to the end
    }
    expect(errors).toEqual([]);
    expect(await result.object).toEqual({ city: 'Oslo' });
    expect(sent).toEqual(BOTH_STREAMED);
  });
});
