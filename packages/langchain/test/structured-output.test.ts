import { OutputParserException } from '@langchain/core/output_parsers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

const Person = z.object({ name: z.string(), age: z.number() }).describe('A person');

describe('withStructuredOutput', () => {
  it('jsonSchema: sends response_format json_schema and validates with zod', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const person = await model
      .withStructuredOutput(Person, { method: 'jsonSchema', name: 'person' })
      .invoke('describe someone');
    expect(Person.parse(person)).toEqual(person);
    expect(bodies[0]?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'person', schema: { type: 'object', required: ['name', 'age'] } },
    });
  });

  it('functionCalling: forces the tool and returns its validated arguments', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/tools', connection);
    const person = await model
      .withStructuredOutput(Person, { method: 'functionCalling', name: 'person' })
      .invoke('describe "Ada"');
    expect(person).toMatchObject({ name: 'Ada' });
    expect(typeof person.age).toBe('number');
    expect(bodies[0]?.tool_choice).toEqual({ type: 'function', function: { name: 'person' } });
  });

  it('strict: true reaches json_schema.strict (jsonSchema) and the tool (functionCalling)', async () => {
    const { bodies, connection } = await recordingGateway();
    const schemaModel = new GatewayChatModel('community/general', connection);
    await schemaModel
      .withStructuredOutput(Person, { method: 'jsonSchema', name: 'person', strict: true })
      .invoke('describe someone');
    expect(bodies[0]?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'person', strict: true },
    });
    const toolModel = new GatewayChatModel('community/tools', connection);
    await toolModel
      .withStructuredOutput(Person, { method: 'functionCalling', name: 'person', strict: true })
      .invoke('describe "Ada"');
    const tools = bodies[1]?.tools as { function: { name: string; strict?: boolean } }[];
    expect(tools[0]?.function).toMatchObject({ name: 'person', strict: true });
  });

  it('jsonMode: sends json_object and parses the text', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/json-object', connection);
    const answer = await model
      .withStructuredOutput(z.object({ answer: z.string() }), { method: 'jsonMode' })
      .invoke('hi');
    expect(answer).toEqual({ answer: 'Echo: hi' });
    expect(bodies[0]?.response_format).toEqual({ type: 'json_object' });
  });

  it('includeRaw gives the raw message and the parsed value', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const result = await model
      .withStructuredOutput(Person, { method: 'jsonSchema', includeRaw: true })
      .invoke('someone');
    expect(result.raw.response_metadata).toMatchObject({ model_name: 'community/general' });
    expect(Person.parse(result.parsed)).toEqual(result.parsed);
  });

  it('chooses the method from the live capabilities: json_schema, then tools, then json_object', async () => {
    const { bodies, connection } = await recordingGateway();
    await new GatewayChatModel('community/general', connection)
      .withStructuredOutput(Person)
      .invoke('x');
    await new GatewayChatModel('community/tools', connection)
      .withStructuredOutput(Person)
      .invoke('x');
    await new GatewayChatModel('community/json-object', connection)
      .withStructuredOutput(z.object({ answer: z.string() }))
      .invoke('x');
    expect(bodies[0]?.response_format).toMatchObject({ type: 'json_schema' });
    expect(bodies[1]?.tools).toBeDefined();
    expect(bodies[1]?.response_format).toBeUndefined();
    expect(bodies[2]?.response_format).toMatchObject({ type: 'json_object' });
  });

  it('refuses a model with none of the three, listing the models that can', async () => {
    const { emulator, connection } = await recordingGateway();
    const plain = new GatewayChatModel('community/streamer', connection);
    await expect(plain.withStructuredOutput(Person).invoke('x')).rejects.toThrow(
      /community\/streamer.*community\/general/s,
    );
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('accepts zod 3 schemas', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const Pet = z3.object({ kind: z3.string(), legs: z3.number() });
    const pet = await model.withStructuredOutput(Pet, { method: 'jsonSchema' }).invoke('a pet');
    expect(Pet.parse(pet)).toEqual(pet);
    const viaTool = await model
      .withStructuredOutput(Pet, { method: 'functionCalling' })
      .invoke('a pet');
    expect(Pet.parse(viaTool)).toEqual(viaTool);
  });

  it('accepts a plain JSON schema and validates against it', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const schema = {
      title: 'city',
      type: 'object',
      properties: { city: { type: 'string' }, population: { type: 'integer' } },
      required: ['city', 'population'],
    };
    const city = await model.withStructuredOutput(schema).invoke('x');
    expect(typeof city.city).toBe('string');
    expect(Number.isInteger(city.population)).toBe(true);
  });

  it('raises a clear parsing error when the model returns invalid JSON', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const error = await model
      .withStructuredOutput(Person, { method: 'jsonSchema' })
      .invoke('[[invalid_json]]')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputParserException);
    expect((error as Error).message).toMatch(/community\/general.*not valid JSON.*jsonSchema/);
    const raw = await model
      .withStructuredOutput(Person, { method: 'jsonSchema', includeRaw: true })
      .invoke('[[invalid_json]]');
    expect(raw.parsed).toBeNull();
  });

  it('raises a clear error when valid JSON does not match the schema', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/json-object', connection);
    await expect(
      model.withStructuredOutput(Person, { method: 'jsonMode' }).invoke('hi'),
    ).rejects.toThrow(/does not match the schema/);
  });

  it('stream() yields growing partial objects, then the validated whole (functionCalling and jsonMode)', async () => {
    const { connection } = await recordingGateway();
    const tools = new GatewayChatModel('community/tools', connection);
    const parts: Record<string, unknown>[] = [];
    for await (const part of await tools
      .withStructuredOutput(Person, { method: 'functionCalling', name: 'person' })
      .stream('describe "Ada Lovelace"')) {
      parts.push(part);
    }
    expect(parts.length).toBeGreaterThan(1);
    const last = parts.at(-1);
    expect(Person.parse(last)).toEqual(last);
    expect(last).toMatchObject({ name: 'Ada Lovelace' });
    // Each partial is a prefix of the answer: its name grows towards the final one.
    for (const part of parts) {
      if (typeof part.name === 'string') expect('Ada Lovelace'.startsWith(part.name)).toBe(true);
    }

    const json = new GatewayChatModel('community/json-object', connection);
    const answers: Record<string, unknown>[] = [];
    for await (const part of await json
      .withStructuredOutput(z.object({ answer: z.string() }), { method: 'jsonMode' })
      .stream('a few words here')) {
      answers.push(part);
    }
    expect(answers.length).toBeGreaterThan(1);
    expect(answers.at(-1)).toEqual({ answer: 'Echo: a few words here' });
  });

  it('a streamed answer that does not match the schema fails the stream', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/json-object', connection);
    const error = await (async () => {
      for await (const _ of await model
        .withStructuredOutput(Person, { method: 'jsonMode' })
        .stream('hi')) {
        // partial objects
      }
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputParserException);
    expect((error as Error).message).toMatch(/does not match the schema/);
  });
});
