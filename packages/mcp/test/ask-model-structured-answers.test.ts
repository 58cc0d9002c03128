/**
 * `ask_model` with `output_schema`, on the answers core reads its own way: a schema whose root is
 * not an object (a forced tool call asks for it as its one property `value`), and an answer that
 * calls a tool (`ask_model` offers none): never the answer, so the next model is asked.
 */

import { describe, expect, it } from 'vitest';
import { askModelOfFile } from './harness';

/** Answers every request with a call of `city`, a tool nobody offered. */
const CALLER = 'community/json-schema';

interface Sent {
  model: string;
  stream?: boolean;
  tools?: { function: { parameters: { type?: unknown } } }[];
}

/**
 * The emulator's answer, but `CALLER`'s (a call of `city`), and a 400 for a tool whose parameters
 * are not an object, as OpenAI-compatible servers refuse it.
 */
const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
  const body = (await request.clone().json()) as Sent;
  if (body.tools?.some((tool) => tool.function.parameters.type !== 'object')) {
    const error = { message: 'schema must be a JSON Schema of \'type: "object"\'' };
    return Response.json({ error }, { status: 400 });
  }
  if (body.model !== CALLER || body.stream) return globalThis.fetch(request);
  const call = { id: 'c1', type: 'function', function: { name: 'city', arguments: '{}' } };
  const message = { role: 'assistant', content: null, tool_calls: [call] };
  const choices = [{ index: 0, message, finish_reason: 'tool_calls' }];
  const completion = { id: 'x', object: 'chat.completion', created: 1, model: CALLER, choices };
  return Response.json(completion, { headers: { 'x-service-model': CALLER } });
};

const ask = askModelOfFile({ clientOptions: { fetch } });

describe('ask_model output_schema answers', () => {
  it('an array root on a tools-only model: output the array, its JSON the text', async () => {
    const result = await ask({
      model: 'community/tools',
      prompt: 'Name "Lviv"',
      output_schema: { type: 'array', items: { type: 'string' } },
    });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent?.output).toEqual(['Lviv']);
    expect(result.content[0]).toEqual({ type: 'text', text: '["Lviv"]' });
  });

  it('an answer calling a tool: that model fails, the next answers', async () => {
    const result = await ask({
      model: CALLER,
      prompt: 'Where is "Lviv"?',
      output_schema: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
      },
      fallback_models: ['community/general'],
    });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent?.output).toEqual({ city: 'Lviv' });
    const route = result.structuredContent?.route as { hops: { model: string; outcome: string }[] };
    expect(route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      [CALLER, 'failed'],
      ['community/general', 'answered'],
    ]);
  });
});
