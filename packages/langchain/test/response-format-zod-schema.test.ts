// A zod or Standard JSON Schema in the `response_format` call option (docs/gateway-protocol.md
// §4.8): sent as the JSON Schema it writes, as `ChatOpenAI` sends it, through `invoke` and
// `stream` alike; the model's answer comes back as with a JSON Schema.
import type { AIMessageChunk } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { GatewayResponseFormat } from '../src/index';
import { joinedStream, recordingModel } from './helpers';

const CITY_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};

/** A Standard JSON Schema that is no zod schema: its `~standard.jsonSchema` writes the schema. */
const standardCity = {
  '~standard': {
    version: 1 as const,
    vendor: 'hand-written',
    validate: (value: unknown) => ({ value }),
    jsonSchema: {
      input: () => ({ $schema: 'http://json-schema.org/draft-07/schema#', ...CITY_SCHEMA }),
      output: () => ({ $schema: 'http://json-schema.org/draft-07/schema#', ...CITY_SCHEMA }),
    },
  },
};

/** What `json_schema.schema` takes: a JSON Schema, a zod or a Standard JSON Schema. */
type AskedSchema = Extract<GatewayResponseFormat, { type: 'json_schema' }>['json_schema']['schema'];

const asking = (schema: AskedSchema) => ({
  response_format: { type: 'json_schema' as const, json_schema: { name: 'weather', schema } },
});

describe('response_format with a zod or Standard JSON Schema', () => {
  it.each([
    ['zod', z.object({ city: z.string() })],
    ['a Standard JSON Schema', standardCity],
  ])('%s: sent as its JSON Schema, answered (invoke, then stream)', async (_, schema) => {
    const { model, bodies } = await recordingModel();
    const answers: AIMessageChunk[] = [
      await model.invoke('weather in "Kyiv"', asking(schema)),
      await joinedStream(model.stream('weather in "Kyiv"', asking(schema))),
    ];
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'weather', schema: CITY_SCHEMA },
      });
    }
    for (const answer of answers) {
      expect(JSON.parse(answer.text)).toEqual({ city: 'Kyiv' });
    }
  });

  it('a JSON Schema is sent as given', async () => {
    const { model, bodies } = await recordingModel();
    await model.invoke('weather in "Kyiv"', asking(CITY_SCHEMA));
    expect(bodies[0]?.response_format).toEqual(asking(CITY_SCHEMA).response_format);
  });
});
