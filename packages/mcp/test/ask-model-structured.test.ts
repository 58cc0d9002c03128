/**
 * `ask_model` with `output_schema`, through the MCP SDK's own Client against the emulator: the
 * server passes the schema to core as structured output (core serves it per model and checks
 * every answer), and returns the checked answer as `output` beside its JSON text, with the route;
 * an answer off the schema on every model is a tool error naming each.
 */

import { CLAIMED_MODEL, withClaimedModel } from '@infergate/emulator/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

/** Its json_schema only its provider's word, and every answer off the schema. */
const CLAIMED = CLAIMED_MODEL;
const CITY = {
  title: 'city',
  type: 'object',
  properties: {
    city: { type: 'string' },
    population: { type: 'integer' },
    kind: { type: 'string', enum: ['town', 'city'] },
  },
  required: ['city', 'population', 'kind'],
};

let harness: Harness;
let client: Client;
beforeAll(async () => {
  harness = await startHarness({
    scenario: withClaimedModel(),
  });
  client = await harness.connect();
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.gateway.emulator.clearFaults();
  harness.gateway.emulator.resetCounters();
});

const emulator = () => harness.gateway.emulator;
const busy = (model: string) =>
  emulator().injectFault({ fault: 'model_busy', model, retryAfter: 3600 });

async function ask(args: Record<string, unknown>, progress = false): Promise<CallToolResult> {
  const steps: unknown[] = [];
  const options = progress ? { onprogress: (step: unknown) => steps.push(step) } : undefined;
  return (await client.callTool(
    { name: 'ask_model', arguments: args },
    undefined,
    options,
  )) as CallToolResult;
}

function expectCity(value: unknown): void {
  expect(value).toMatchObject({
    city: expect.any(String),
    kind: expect.stringMatching(/town|city/),
  });
  expect(Number.isInteger((value as { population: unknown }).population)).toBe(true);
}

describe('ask_model with output_schema', () => {
  it('tools/list shows output_schema and output_schema_name', async () => {
    const { tools } = await client.listTools();
    const ask = tools.find((tool) => tool.name === 'ask_model')!;
    const properties = (ask.inputSchema as { properties: Record<string, Record<string, unknown>> })
      .properties;
    expect(properties.output_schema).toMatchObject({ type: 'object' });
    expect(String(properties.output_schema!.description)).toContain('JSON Schema');
    expect(properties.output_schema_name).toMatchObject({ type: 'string' });
    const output = (ask.outputSchema as { properties: Record<string, unknown> }).properties;
    expect(output).toHaveProperty('output');
  });

  it.each([
    ['whole', false],
    ['streamed for progress', true],
  ] as const)(
    '%s: the checked answer as output, its JSON as the text, the route saying how',
    async (_label, progress) => {
      const result = await ask(
        { model: 'community/general', prompt: 'about "Lviv"', output_schema: CITY },
        progress,
      );
      expect(result.isError).toBeFalsy();
      const content = result.structuredContent as Record<string, unknown>;
      expectCity(content.output);
      expect(JSON.parse(textOf(result))).toEqual(content.output);
      expect(content.text).toBe(textOf(result));
      expect(content.route).toMatchObject({
        hops: [
          {
            model: 'community/general',
            outcome: 'answered',
            structured: { method: 'json_schema', checked: true },
          },
        ],
      });
    },
  );

  it('takes the schema as JSON text too (tool callers often send it so), and its name', async () => {
    const result = await ask({
      model: 'community/tools',
      prompt: 'about "Lviv"',
      output_schema: JSON.stringify(CITY),
      output_schema_name: 'town_facts',
    });
    expect(result.isError).toBeFalsy();
    expectCity((result.structuredContent as { output: unknown }).output);
    const hop = (result.structuredContent as { route: { hops: { structured?: unknown }[] } }).route
      .hops[0];
    expect(hop?.structured).toEqual({ method: 'tools', checked: true });
  });

  it('refuses a schema that is not an object, before any request', async () => {
    const result = await ask({ model: 'community/general', prompt: 'x', output_schema: '[1,' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/output_schema/);
    expect(emulator().counters.requests.chat).toBe(0);
  });

  it('over fallback_models whose models serve the schema three ways', async () => {
    const args = {
      model: 'community/json-schema',
      prompt: 'about "Lviv"',
      output_schema: CITY,
      fallback_models: ['community/tools', 'community/json-object'],
    };
    const ways: unknown[] = [];
    for (const down of [
      [],
      ['community/json-schema'],
      ['community/json-schema', 'community/tools'],
    ]) {
      emulator().clearFaults();
      for (const model of down) busy(model);
      const result = await ask(args);
      expect(result.isError).toBeFalsy();
      const content = result.structuredContent as {
        output: unknown;
        model: string;
        route: { hops: { structured?: { method: string } }[] };
      };
      expectCity(content.output);
      ways.push([content.model, content.route.hops.at(-1)?.structured?.method]);
    }
    expect(ways).toEqual([
      ['community/json-schema', 'json_schema'],
      ['community/tools', 'tools'],
      ['community/json-object', 'json_object'],
    ]);
  });

  it('a provider_claimed model answering off the schema is left for the next', async () => {
    const result = await ask({
      model: CLAIMED,
      prompt: 'about "Lviv"',
      output_schema: CITY,
      fallback_models: ['community/json-object'],
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      model: 'community/json-object',
      requested_model: CLAIMED,
      route: {
        hops: [
          {
            model: CLAIMED,
            outcome: 'failed',
            reason: 'invalid_structured_output',
            structured: { method: 'json_schema', checked: false },
          },
          { model: 'community/json-object', outcome: 'answered' },
        ],
      },
    });
    // The text stays the JSON alone; the note of another model answering is a block of its own.
    expectCity(JSON.parse(textOf(result)));
    expect((result.content[1] as { text: string }).text).toContain('invalid_structured_output');
  });

  it('an answer off the schema on every model is a tool error with the issues and every hop', async () => {
    const result = await ask({ model: CLAIMED, prompt: 'about "Lviv"', output_schema: CITY });
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent as {
      error: {
        code: string;
        issues: { message: string }[];
        route: { hops: Record<string, unknown>[] };
        what_to_do: string;
      };
    };
    expect(error.code).toBe('invalid_structured_output');
    expect(error.issues.length).toBeGreaterThan(0);
    expect(error.route.hops).toEqual([
      {
        model: CLAIMED,
        outcome: 'failed',
        reason: 'invalid_structured_output',
        structured: { method: 'json_schema', checked: false },
      },
    ]);
    expect(error.what_to_do).toContain('output_schema');
    expect(textOf(result)).toMatch(/invalid_structured_output.*community\/claimed/s);
  });
});

describe('ask_model with an output_schema core cannot check answers against', () => {
  it('is refused as the output_schema argument before any request; no model blamed', async () => {
    const result = await ask({
      model: 'community/general',
      prompt: 'give json',
      output_schema: { type: 'object', properties: { n: { type: 'strin' } } },
      fallback_models: ['community/json-schema', 'pool-a/llama-3-8b'],
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: { code: 'invalid_request_error', field: 'output_schema' },
    });
    expect(textOf(result)).toMatch(/output_schema: .* at #\/properties\/n: type must be one of/);
    expect(emulator().counters.requests.chat ?? 0).toBe(0);
    // The model never failed: a call without the schema is answered by it.
    for (let i = 0; i < 2; i++) {
      await ask({
        model: 'community/general',
        prompt: 'x',
        output_schema: { type: 'strin' },
        fallback_models: ['community/json-schema'],
      });
    }
    const after = await ask({
      model: 'community/general',
      prompt: 'hello',
      fallback_models: ['community/streamer'],
    });
    const { route } = after.structuredContent as { route: { hops: unknown[] } };
    expect(route.hops).toEqual([{ model: 'community/general', outcome: 'answered' }]);
  });
});
