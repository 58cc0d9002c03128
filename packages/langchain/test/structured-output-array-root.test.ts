// withStructuredOutput(z.array(...)) on a model that serves a schema only by a forced tool call:
// a tool's parameters must be an object (OpenAI-compatible servers refuse an array with a 400), so
// core asks for the array as the tool's one property `value` and hands LangChain the array.
import { emulate } from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

interface Sent {
  model: string;
  tools?: { function: { parameters: { type?: unknown } } }[];
}

/** The emulator behind a server that refuses, as OpenAI does, a tool whose parameters are no object. */
async function strictTools() {
  const sent: Sent[] = [];
  const connection = intercepting(await emulate(), async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const body = (await request.json()) as Sent;
    sent.push(body);
    const bad = body.tools?.find((tool) => tool.function.parameters.type !== 'object');
    if (bad === undefined) return undefined;
    const message = `Invalid schema for function: schema must be a JSON Schema of 'type: "object"', got 'type: "${String(bad.function.parameters.type)}"'.`;
    return Response.json({ error: { message, type: 'invalid_request_error' } }, { status: 400 });
  });
  return { connection, sent };
}

/**
 * `schema` as withStructuredOutput's types take it: they name an object output, while LangChain
 * passes any zod schema on (its JSON Schema, its parse) as it is.
 */
const asOutput = (schema: z.ZodType) => schema as unknown as Record<string, unknown>;

describe('withStructuredOutput with an array schema, served by tools', () => {
  it('invoke: the array, asked for as the tool’s one property', async () => {
    const { connection, sent } = await strictTools();
    const model = new GatewayChatModel({ ...connection, model: 'community/tools' });
    const cities = await model
      .withStructuredOutput(asOutput(z.array(z.string())))
      .invoke('List "Oslo"');
    expect(cities).toEqual(['Oslo']);
    expect(sent[0]?.tools?.[0]?.function.parameters).toMatchObject({
      type: 'object',
      properties: { value: { type: 'array' } },
      required: ['value'],
    });
  });

  it('with a fallback list: the tools model answers, no 400 ends the call', async () => {
    const { connection, sent } = await strictTools();
    const model = new GatewayChatModel({
      ...connection,
      model: 'community/tools',
      fallbackModels: ['community/json-schema'],
    });
    const kind = asOutput(z.enum(['town', 'village']));
    const { parsed, raw } = await model
      .withStructuredOutput(kind, { includeRaw: true })
      .invoke('Is "Oslo" a town?');
    expect(parsed).toBe('town');
    expect(sent.map((body) => body.model)).toEqual(['community/tools']);
    const metadata = (raw as AIMessage).response_metadata as { route: { hops: unknown[] } };
    expect(metadata.route.hops).toEqual([
      {
        model: 'community/tools',
        outcome: 'answered',
        structured: { method: 'tools', checked: true },
      },
    ]);
  });
});
