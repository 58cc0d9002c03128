// docs/gateway-protocol.md §4.8: a schema titled with symbols only ("!!!", "???") names nothing a
// server takes; LangChain hands the title to core as it is, and core's one name rule sends its
// default, `response` — on a model serving the schema natively and on one serving it by a forced
// tool — rather than LangChain picking a name (`extract`) itself.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src';
import { recordingGateway } from './helpers';

const Person = z.object({ name: z.string(), age: z.number() });

describe('withStructuredOutput of a schema titled with symbols only', () => {
  it.each([
    ['!!!', 'community/json-schema', { response_format: { json_schema: { name: 'response' } } }],
    ['???', 'community/tools', { tool_choice: { function: { name: 'response' } } }],
  ])('title %s on %s: sent as core names it', async (title, model, sent) => {
    const { bodies, connection } = await recordingGateway();
    const chat = new GatewayChatModel({ ...connection, model });
    const person = await chat.withStructuredOutput(Person.meta({ title })).invoke('Describe Ada');
    expect(Person.parse(person)).toEqual(person);
    expect(bodies[0]).toMatchObject(sent);
  });
});
