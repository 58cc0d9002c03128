import { RunnableLambda } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { convertToGatewayTools } from './convert-to-gateway-tools';
import { mapToolChoice } from './map-tool-choice';

const weather = tool(async ({ city }) => `sunny in ${city}`, {
  name: 'weather',
  description: 'Weather in a city',
  schema: z.object({ city: z.string() }),
});

describe('convertToGatewayTools', () => {
  it('converts a LangChain tool with its JSON schema', () => {
    const [converted] = convertToGatewayTools([weather]);
    expect(converted?.type).toBe('function');
    expect(converted?.function.name).toBe('weather');
    expect(converted?.function.description).toBe('Weather in a city');
    expect(converted?.function.parameters).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
  });

  it('never sends $schema in function.parameters, whatever the tool form', () => {
    const draft = 'https://json-schema.org/draft/2020-12/schema';
    const converted = convertToGatewayTools([
      weather,
      { name: 'b', description: 'B', schema: z.object({ x: z.number() }) },
      RunnableLambda.from(async ({ q }: { q: string }) => q).asTool({
        name: 'c',
        schema: z.object({ q: z.string() }),
      }),
      {
        type: 'function',
        function: { name: 'd', parameters: { $schema: draft, type: 'object', properties: {} } },
      },
      z.object({ y: z.string() }).meta({ title: 'e' }),
      { title: 'f', $schema: draft, type: 'object', properties: {} },
    ]);
    expect(converted).toHaveLength(6);
    for (const tool of converted) expect(tool.function.parameters).not.toHaveProperty('$schema');
  });

  it('accepts OpenAI tools, function definitions, { name, schema } and titled schemas', () => {
    const openai = {
      type: 'function' as const,
      function: { name: 'a', parameters: { type: 'object', properties: {} } },
    };
    const converted = convertToGatewayTools([
      openai,
      { name: 'b', description: 'B', parameters: { type: 'object', properties: {} } },
      { name: 'c', description: 'C', schema: z.object({ x: z.number() }) },
      z.object({ y: z.string() }).meta({ title: 'd', description: 'D' }),
      { title: 'e', type: 'object', properties: { z: { type: 'boolean' } } },
    ]);
    expect(converted.map((t) => t.function.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(converted[3]?.function.description).toBe('D');
    expect(converted[4]?.function.parameters).toEqual({
      type: 'object',
      properties: { z: { type: 'boolean' } },
    });
    // the caller's object is never changed
    convertToGatewayTools([openai], { strict: true });
    expect('strict' in openai.function).toBe(false);
  });

  it('accepts a RunnableToolLike', () => {
    const asTool = RunnableLambda.from(async ({ q }: { q: string }) => q).asTool({
      name: 'search',
      description: 'Search the docs',
      schema: z.object({ q: z.string() }),
    });
    const [converted] = convertToGatewayTools([asTool]);
    expect(converted?.function).toMatchObject({
      name: 'search',
      description: 'Search the docs',
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
    });
  });

  it('sets strict on every tool when asked', () => {
    const converted = convertToGatewayTools([weather], { strict: true });
    expect(converted[0]?.function.strict).toBe(true);
  });

  it('refuses untitled schemas, duplicates and non-tools', () => {
    expect(() => convertToGatewayTools([z.object({ y: z.string() })])).toThrow(/title/);
    expect(() => convertToGatewayTools([weather, weather])).toThrow(
      /two tools are named "weather"/,
    );
    expect(() => convertToGatewayTools([{ foo: 1 }])).toThrow(/tools\[0\]: not a tool/);
  });
});

describe('mapToolChoice', () => {
  it('maps LangChain choices to chat-completions choices', () => {
    expect(mapToolChoice('any')).toBe('required');
    expect(mapToolChoice('required')).toBe('required');
    expect(mapToolChoice('auto')).toBe('auto');
    expect(mapToolChoice('none')).toBe('none');
    expect(mapToolChoice('weather')).toEqual({ type: 'function', function: { name: 'weather' } });
    expect(mapToolChoice({ type: 'function', function: { name: 'x' } })).toEqual({
      type: 'function',
      function: { name: 'x' },
    });
    expect(mapToolChoice(undefined)).toBeUndefined();
  });
});
