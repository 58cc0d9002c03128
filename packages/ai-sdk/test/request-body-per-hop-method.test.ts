// docs/gateway-protocol.md §4.7, §4.8: a structured call whose first model's answer failed the
// schema moves on to a model that serves the schema its own way (a forced tool, `json_object`).
// Through ai's generateText and streamText with `Output.object`, against the emulator: the request
// body ai shows (`request.body`, an `APICallError`'s `requestBodyValues`) is the one that hop sent
// (core's), not the call's `json_schema` renamed.
import { APICallError } from '@ai-sdk/provider';
import { CLAIMED_MODEL, emulate, withClaimedModel } from '@infergate/emulator/testing';
import { generateText, Output, streamText } from 'ai';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createGateway } from '../src';

const emulated = await emulate({ scenario: withClaimedModel(), hooks: { afterEach, afterAll } });
const Place = z.object({ city: z.string() });
const QUESTION = 'Where is "Oslo"?';
/** Has `tools` only: served by a forced tool call. */
const TOOLS = 'community/tools';
/** Has `json_object` only: the schema stated in a system message. */
const JSON_OBJECT = 'community/json-object';
const sent: Record<string, unknown>[] = [];
beforeEach(() => {
  sent.length = 0;
});

/** `community/claimed` (answers off the schema) falling back to `fallback`; each body kept. */
function claimedFirst(fallback: string, answer?: () => Response) {
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/chat/completions')) {
      const body = (await request.clone().json()) as Record<string, unknown>;
      sent.push(body);
      if (body.model === fallback && answer) return answer();
    }
    return emulated.fetch(request);
  };
  const gateway = createGateway({ ...emulated.connection, fetch, circuitBreaker: false });
  return gateway(CLAIMED_MODEL, { fallbackModels: [fallback] });
}

describe("the request body shown is the answering hop's, as it served the schema", () => {
  it('generateText, a forced tool: request.body has the tool, no json_schema', async () => {
    const result = await generateText({
      model: claimedFirst(TOOLS),
      output: Output.object({ schema: Place }),
      prompt: QUESTION,
      include: { requestBody: true },
    });
    expect(sent.map(({ model }) => model)).toEqual([CLAIMED_MODEL, TOOLS]);
    expect(sent[1]).toMatchObject({ tool_choice: { type: 'function' } });
    expect(sent[1]).not.toHaveProperty('response_format');
    expect(result.request.body).toEqual(sent[1]);
  });

  it('streamText, json_object: request.body asks for json_object', async () => {
    const result = streamText({
      model: claimedFirst(JSON_OBJECT),
      output: Output.object({ schema: Place }),
      prompt: QUESTION,
      include: { requestBody: true },
    });
    await result.consumeStream();
    expect(sent.map(({ model }) => model)).toEqual([CLAIMED_MODEL, JSON_OBJECT]);
    expect(sent[1]).toMatchObject({ response_format: { type: 'json_object' }, stream: true });
    expect((await result.request).body).toEqual(sent[1]);
  });

  it("an APICallError's requestBodyValues is the failing hop's forced-tool body", async () => {
    const refused = () =>
      Response.json({ error: { code: 'invalid_request', message: 'no' } }, { status: 400 });
    const failure = await generateText({
      model: claimedFirst(TOOLS, refused),
      output: Output.object({ schema: Place }),
      prompt: QUESTION,
      maxRetries: 0,
    }).catch((error: unknown) => error);
    expect(APICallError.isInstance(failure), String(failure)).toBe(true);
    expect(sent.map(({ model }) => model)).toEqual([CLAIMED_MODEL, TOOLS]);
    expect((failure as APICallError).requestBodyValues).toEqual(sent[1]);
  });
});
