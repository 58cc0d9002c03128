// withStructuredOutput against the emulator: the model passes core's `response_format:
// json_schema` and `structuredOutput` (methods in the order `method` names, the zod schema as
// `standard`), and maps what core gives back (the checked value, the route with how each hop served
// the schema, `invalid_structured_output` as OutputParserException). How core walks and checks is
// core's to test; here, what the adapter sends and what the user gets.
import type { ChatRoute } from '@infergate/core';
import { CLAIMED_MODEL, caught, emulate, withClaimedModel } from '@infergate/emulator/testing';
import type { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { OutputParserException } from '@langchain/core/output_parsers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { GatewayChatModel, type GatewayResponseMetadata, isGatewayError } from '../src/index';
import { intercepting, recordingGateway } from './helpers';

const Person = z.object({ name: z.string(), age: z.number() }).describe('A person');

/** The three ways a model may serve a schema, one model each (all stream). */
const JSON_SCHEMA_ONLY = 'community/json-schema';
const TOOLS_ONLY = 'community/tools';
const JSON_OBJECT_ONLY = 'community/json-object';

/** A model whose json_schema is only its provider's word, answering off the schema every time. */
const CLAIMED = CLAIMED_MODEL;

/** Models whose JSON answers come in a code fence: prose before and after it, or closed on the JSON's line. */
const PROSE_FENCED = 'community/prose-fenced';
const INLINE_FENCED = 'community/inline-fenced';
const fenced = (wrap: 'prose-fence' | 'fence-inline') => ({
  owned_by: 'service-community' as const,
  capabilities: ['chat' as const, 'streaming' as const, 'json_schema' as const],
  online: true,
  jsonAnswers: { wrap },
});
/** Has `json_object` only, its JSON always inside a ```json code fence. */
const JSON_OBJECT_FENCED = 'community/json-object-fenced';
const WITH_FENCED = {
  models: {
    [PROSE_FENCED]: fenced('prose-fence'),
    [INLINE_FENCED]: fenced('fence-inline'),
    [JSON_OBJECT_FENCED]: {
      ...fenced('prose-fence'),
      capabilities: ['chat' as const, 'streaming' as const, 'json_object' as const],
    },
  },
};

/** How a request sent to the gateway asked for the schema. */
function wireMethod(body: Record<string, unknown> | undefined): string | undefined {
  if (body?.tool_choice !== undefined) return 'tools';
  return (body?.response_format as { type?: string } | undefined)?.type;
}

const routeOf = (message: AIMessage | AIMessageChunk) =>
  (message.response_metadata as GatewayResponseMetadata).route as ChatRoute;

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const parts: T[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('withStructuredOutput: what is sent', () => {
  it.each([
    [undefined, 'json_schema'],
    ['jsonSchema', 'json_schema'],
    ['functionCalling', 'tools'],
    ['jsonMode', 'json_object'],
  ] as const)('method %s: a model with all three serves it by %s', async (method, way) => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const person = await model
      .withStructuredOutput(Person, { ...(method ? { method } : {}), name: 'person' })
      .invoke('describe "Ada"');
    expect(Person.parse(person)).toEqual(person);
    expect(person.name).toBe('Ada');
    expect(bodies).toHaveLength(1);
    expect(wireMethod(bodies[0])).toBe(way);
  });

  it('method names the way tried first, not the only one: a model without it serves the schema its own way', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel(JSON_OBJECT_ONLY, connection);
    const person = await model
      .withStructuredOutput(Person, { method: 'functionCalling' })
      .invoke('describe "Ada"');
    expect(Person.parse(person)).toEqual(person);
    expect(wireMethod(bodies[0])).toBe('json_object');
  });

  it('name, description and strict reach the schema as the model sees it', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel(JSON_SCHEMA_ONLY, connection);
    await model
      .withStructuredOutput(Person, { name: 'person', strict: true })
      .invoke('describe "Ada"');
    expect(bodies[0]?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: {
        name: 'person',
        description: 'A person',
        strict: true,
        schema: { type: 'object', required: ['name', 'age'] },
      },
    });
    // zod's JSON Schema names its dialect (`$schema`): the schema sent is the schema alone.
    const sent = bodies[0]?.response_format as { json_schema: { schema: object } };
    expect(sent.json_schema.schema).not.toHaveProperty('$schema');
    const tools = new GatewayChatModel(TOOLS_ONLY, connection);
    await tools.withStructuredOutput(Person, { name: 'person', strict: true }).invoke('x');
    const tool = (bodies[1]?.tools as { function: Record<string, unknown> }[] | undefined)?.[0];
    expect(tool?.function).toMatchObject({ name: 'person', strict: true });
    expect(bodies[1]?.tool_choice).toEqual({ type: 'function', function: { name: 'person' } });
  });

  it.each([
    ['functionCalling', 'tools'],
    ['jsonSchema', 'json_schema'],
    [undefined, 'json_schema'],
  ] as const)(
    'an OpenAI function definition (method %s): its parameters are the schema, its name the name',
    async (method, way) => {
      const { bodies, connection } = await recordingGateway();
      const model = new GatewayChatModel('community/general', connection);
      const definition = {
        name: 'get_person',
        description: 'A person',
        parameters: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
        },
      };
      const person = await model
        .withStructuredOutput(definition, method ? { method } : undefined)
        .invoke('describe "Ada"');
      expect(person).toEqual({ name: 'Ada' });
      expect(wireMethod(bodies[0])).toBe(way);
      const body = bodies[0] as {
        tools?: { function: Record<string, unknown> }[];
        response_format?: { json_schema: Record<string, unknown> };
      };
      const sent = way === 'tools' ? body.tools?.[0]?.function : body.response_format?.json_schema;
      expect(sent).toMatchObject({ name: 'get_person', description: 'A person' });
      expect(sent?.[way === 'tools' ? 'parameters' : 'schema']).toMatchObject(
        definition.parameters,
      );
    },
  );

  it("the model's structuredOutput.methods pins the ways; a method it leaves out is refused at once", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      structuredOutput: { methods: ['json_object', 'tools'] },
    });
    await model.withStructuredOutput(Person).invoke('describe "Ada"');
    await model.withStructuredOutput(Person, { method: 'functionCalling' }).invoke('x');
    expect(bodies.map(wireMethod)).toEqual(['json_object', 'tools']);
    const refused = (() => {
      try {
        model.withStructuredOutput(Person, { method: 'jsonSchema' });
      } catch (error) {
        return error;
      }
    })();
    expect(isGatewayError(refused) && refused.code).toBe('configuration_error');
    expect((refused as Error).message).toMatch(/json_schema.*structuredOutput\.methods/);
  });

  it("a call's structuredOutput.methods pins that call; the zod schema still checks the answer", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    // A rule JSON Schema cannot state: only the zod schema (sent as `standard`) knows it.
    const Adult = Person.refine((person) => person.age > 1_000, 'must be older than 1000');
    const error = await caught(
      model
        .withStructuredOutput(Adult, { method: 'jsonSchema' })
        .invoke('describe "Ada"', { structuredOutput: { methods: ['tools'] } }),
    );
    expect(wireMethod(bodies[0])).toBe('tools');
    expect(error).toBeInstanceOf(OutputParserException);
    expect((error as OutputParserException).observation).toMatch(/must be older than 1000/);
  });

  it('refuses an unknown method, and a schema that is none, at once', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    expect(() => model.withStructuredOutput(Person, { method: 'xml' })).toThrow(
      /unknown method "xml"/,
    );
    expect(() => model.withStructuredOutput('person' as never)).toThrow(/zod schema/);
  });

  it('a model that can serve no schema is refused before any request, naming it', async () => {
    const { emulator, connection } = await recordingGateway();
    const plain = new GatewayChatModel('community/streamer', connection);
    const error = await caught(plain.withStructuredOutput(Person).invoke('x'));
    expect(isGatewayError(error)).toBe(true);
    expect((error as Error).message).toMatch(/community\/streamer/);
    expect(emulator.counters.requests.chat).toBe(0);
  });
});

describe('withStructuredOutput: what comes back', () => {
  it('includeRaw: the raw message holds the JSON and the route says how the schema was served', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel(TOOLS_ONLY, connection);
    const { raw, parsed } = await model
      .withStructuredOutput(Person, { includeRaw: true, name: 'person' })
      .invoke('describe "Ada"');
    expect(Person.parse(parsed)).toEqual(parsed);
    // Core gives the forced tool call's arguments as the text; the raw message has the call too,
    // as ChatOpenAI's does (structured-include-raw-tool-call.test.ts).
    expect(JSON.parse(raw.text)).toEqual(parsed);
    expect((raw as AIMessage).tool_calls).toMatchObject([{ name: 'person', args: parsed }]);
    expect(routeOf(raw as AIMessage).hops).toEqual([
      { model: TOOLS_ONLY, outcome: 'answered', structured: { method: 'tools', checked: true } },
    ]);
  });

  it('zod 3, a standard schema (zod 4) and a plain JSON schema all come back checked', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel(JSON_OBJECT_ONLY, connection);
    const Pet = z3.object({ kind: z3.string(), legs: z3.number() });
    expect(Pet.parse(await model.withStructuredOutput(Pet).invoke('a pet'))).toBeTruthy();
    const city = await model
      .withStructuredOutput({
        title: 'city',
        type: 'object',
        properties: { city: { type: 'string' }, population: { type: 'integer' } },
        required: ['city', 'population'],
      })
      .invoke('x');
    expect(typeof city.city).toBe('string');
    expect(Number.isInteger(city.population)).toBe(true);
  });

  describe.each([
    ['invoke', false],
    ['stream', true],
  ] as const)('over a list whose models serve the schema three ways (%s)', (_label, streams) => {
    it('each model serves it its own way; the route says how, and that its answer passed', async () => {
      const { emulator, connection } = await recordingGateway();
      const model = new GatewayChatModel(JSON_SCHEMA_ONLY, {
        ...connection,
        fallbackModels: [TOOLS_ONLY, JSON_OBJECT_ONLY],
      });
      const structured = model.withStructuredOutput(Person, { includeRaw: true });
      const ask = async () => {
        if (!streams) return structured.invoke('describe "Ada"');
        const parts = await collect(await structured.stream('describe "Ada"'));
        const raw = parts.find((part) => 'raw' in part)?.raw;
        const parsed = parts.findLast((part) => 'parsed' in part)?.parsed;
        return { raw: raw!, parsed: parsed! };
      };
      const ways: [string, string | undefined][] = [];
      for (const busy of [[], [JSON_SCHEMA_ONLY], [JSON_SCHEMA_ONLY, TOOLS_ONLY]]) {
        emulator.clearFaults();
        for (const id of busy)
          emulator.injectFault({ fault: 'model_busy', model: id, retryAfter: 3600 });
        const { raw, parsed } = await ask();
        expect(Person.parse(parsed)).toEqual(parsed);
        const answered = routeOf(raw as AIMessage).hops.at(-1) as {
          model: string;
          structured?: { method: string; checked: boolean };
        };
        expect(answered.structured?.checked).toBe(true);
        ways.push([answered.model, answered.structured?.method]);
      }
      expect(ways).toEqual([
        [JSON_SCHEMA_ONLY, 'json_schema'],
        [TOOLS_ONLY, 'tools'],
        [JSON_OBJECT_ONLY, 'json_object'],
      ]);
    });
  });

  it('a provider_claimed model answering off the schema is left; the next model answers', async () => {
    const { connection } = await recordingGateway(withClaimedModel());
    const model = new GatewayChatModel(CLAIMED, { ...connection, fallbackModels: [TOOLS_ONLY] });
    const { raw, parsed } = await model
      .withStructuredOutput(Person, { includeRaw: true })
      .invoke('describe "Ada"');
    expect(Person.parse(parsed)).toEqual(parsed);
    expect(routeOf(raw as AIMessage).hops).toEqual([
      {
        model: CLAIMED,
        outcome: 'failed',
        reason: 'invalid_structured_output',
        structured: { method: 'json_schema', checked: false },
        // The refused answer's tokens were spent: its hop reports them (usage_metadata does not).
        usage: expect.objectContaining({ total_tokens: expect.any(Number) }),
      },
      { model: TOOLS_ONLY, outcome: 'answered', structured: { method: 'tools', checked: true } },
    ]);
  });

  it.each([
    ['invoke', false],
    ['stream', true],
  ] as const)(
    '%s: an answer off the schema on every model is OutputParserException with the text, the issues and the route',
    async (_label, streams) => {
      const { connection } = await recordingGateway(withClaimedModel());
      const model = new GatewayChatModel(CLAIMED, connection);
      const structured = model.withStructuredOutput(Person);
      const error = await caught(
        streams
          ? collect(await structured.stream('describe "Ada"'))
          : structured.invoke('describe "Ada"'),
      );
      expect(error).toBeInstanceOf(OutputParserException);
      const exception = error as OutputParserException;
      expect(exception.message).toMatch(/community\/claimed.*json_schema/s);
      expect(exception.llmOutput).toBeDefined();
      expect(() => Person.parse(JSON.parse(exception.llmOutput!))).toThrow();
      expect(exception.observation).toMatch(/name|age/);
      const cause = exception.cause;
      expect(isGatewayError(cause) && cause.code).toBe('invalid_structured_output');
      expect(isGatewayError(cause) && cause.invalidOutput?.issues.length).toBeGreaterThan(0);
      expect(isGatewayError(cause) && cause.route?.hops.at(-1)).toMatchObject({ model: CLAIMED });
      // The refused answer's tokens were spent: core's error reports them.
      expect(isGatewayError(cause) && cause.usage?.total_tokens).toBeGreaterThan(0);
    },
  );

  it('hedge: a slow first model is raced by the next, which serves the schema another way', async () => {
    const { emulator, connection } = await recordingGateway();
    // Stalled far longer than the test: only the hedge can answer.
    emulator.injectFault({ fault: 'stall_first_chunk', model: JSON_SCHEMA_ONLY, ms: 60_000 });
    const model = new GatewayChatModel(JSON_SCHEMA_ONLY, {
      ...connection,
      fallbackModels: [TOOLS_ONLY],
      hedge: { afterMs: 50, maxExtra: 1 },
    });
    const { raw, parsed } = await model
      .withStructuredOutput(Person, { includeRaw: true })
      .invoke('describe "Ada"');
    expect(Person.parse(parsed)).toEqual(parsed);
    const hops = routeOf(raw as AIMessage).hops;
    expect(hops).toContainEqual({
      model: TOOLS_ONLY,
      outcome: 'answered',
      structured: { method: 'tools', checked: true },
    });
    expect(hops).toContainEqual(
      expect.objectContaining({ model: JSON_SCHEMA_ONLY, outcome: 'lost' }),
    );
  });

  it('a streaming: true model reads the stream for invoke and returns the checked value', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel(TOOLS_ONLY, { ...connection, streaming: true });
    const Adult = Person.refine((person) => person.age > 1_000, 'must be older than 1000');
    const person = await model.withStructuredOutput(Person).invoke('describe "Ada"');
    expect(Person.parse(person)).toEqual(person);
    const error = await caught(model.withStructuredOutput(Adult).invoke('describe "Ada"'));
    expect(error).toBeInstanceOf(OutputParserException);
  });

  it('a stream ends with the value core checked, and the zod schema checks it', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel(TOOLS_ONLY, connection);
    const parts = await collect(
      await model.withStructuredOutput(Person, { includeRaw: true }).stream('describe "Ada"'),
    );
    const raw = parts
      .flatMap((part) => ('raw' in part ? [part.raw as AIMessageChunk] : []))
      .reduce((whole, chunk) => whole.concat(chunk));
    const parsed = parts.findLast((part) => 'parsed' in part)?.parsed;
    expect(Person.parse(parsed)).toEqual(parsed);
    // (The raw message keeps what ChatOpenAI's has: not the converter's `parsed`.)
    expect(raw.additional_kwargs).not.toHaveProperty('parsed');
    expect(routeOf(raw).hops).toEqual([
      { model: TOOLS_ONLY, outcome: 'answered', structured: { method: 'tools', checked: true } },
    ]);
    const Adult = Person.refine((person) => person.age > 1_000, 'must be older than 1000');
    const error = await caught(collect(await model.withStructuredOutput(Adult).stream('x')));
    expect(error).toBeInstanceOf(OutputParserException);
    expect((error as OutputParserException).observation).toMatch(/must be older than 1000/);
  });

  it.each([PROSE_FENCED, INLINE_FENCED])(
    'invoke() on %s gives the checked object, streamed or not',
    async (id) => {
      const { connection } = await recordingGateway(WITH_FENCED);
      for (const streaming of [false, true]) {
        const model = new GatewayChatModel(id, { ...connection, streaming });
        const person = await model.withStructuredOutput(Person).invoke('describe "Ada Lovelace"');
        expect(Person.parse(person)).toEqual(person);
        expect(person.name).toBe('Ada Lovelace');
      }
    },
  );

  it('JSON after whitespace: the streamed raw text is the JSON from its first character, as invoke’s', async () => {
    const model = new GatewayChatModel(JSON_SCHEMA_ONLY, await blankBeforeJson());
    const structured = model.withStructuredOutput(Person, { includeRaw: true });
    const whole = (await structured.invoke('describe "Ada"')).raw as AIMessage;
    const raw = (await collect(await structured.stream('describe "Ada"')))
      .flatMap((part) => ('raw' in part ? [part.raw as AIMessageChunk] : []))
      .reduce((all, chunk) => all.concat(chunk));
    expect(whole.content).toMatch(/^\{"name":"Ada"/);
    expect(raw.content).toBe(whole.content);
  });

  // A fenced answer's partials are read from its JSON alone: core leaves the fence and prose out.
  it.each([JSON_SCHEMA_ONLY, TOOLS_ONLY, JSON_OBJECT_ONLY, PROSE_FENCED, INLINE_FENCED])(
    'stream() on %s yields growing partial objects, then the checked whole',
    async (id) => {
      const { connection } = await recordingGateway(WITH_FENCED);
      const model = new GatewayChatModel(id, connection);
      const parts = await collect(
        await model.withStructuredOutput(Person).stream('describe "Ada Lovelace"'),
      );
      expect(parts.length).toBeGreaterThan(1);
      const last = parts.at(-1);
      expect(Person.parse(last)).toEqual(last);
      expect(last).toMatchObject({ name: 'Ada Lovelace' });
      for (const part of parts) {
        if (typeof part.name === 'string') expect('Ada Lovelace'.startsWith(part.name)).toBe(true);
      }
    },
  );
});

// JSON asked for with no schema (`response_format: json_object`): core reads the answer by its one
// fence rule, as a schema's, whichever adapter asks; `jsonMode` with a schema is core's schema path.
describe('response_format json_object (no schema): a fenced answer', () => {
  const JSON_TEXT = JSON.stringify({ answer: 'Echo: Where is "Kyiv"?' });

  it('invoke() and stream() give the JSON alone, the fence and the prose around it left out', async () => {
    const { connection } = await recordingGateway(WITH_FENCED);
    const model = new GatewayChatModel(JSON_OBJECT_FENCED, connection);
    const options = { response_format: { type: 'json_object' as const } };
    const whole = await model.invoke('Where is "Kyiv"?', options);
    expect(whole.content).toBe(JSON_TEXT);
    const chunks = await collect(await model.stream('Where is "Kyiv"?', options));
    expect(chunks.reduce((all, chunk) => all.concat(chunk)).content).toBe(JSON_TEXT);
  });

  it('withStructuredOutput(s, { method: "jsonMode" }) reads the fenced JSON as the checked object', async () => {
    const { bodies, connection } = await recordingGateway(WITH_FENCED);
    const model = new GatewayChatModel(JSON_OBJECT_FENCED, connection);
    const person = await model
      .withStructuredOutput(Person, { method: 'jsonMode' })
      .invoke('describe "Ada Lovelace"');
    expect(person).toMatchObject({ name: 'Ada Lovelace' });
    expect(wireMethod(bodies[0])).toBe('json_object');
  });
});

/** A connection to the emulator whose chat answers' text starts with a newline and two spaces. */
async function blankBeforeJson() {
  return intercepting(await emulate(), async (request, emulator) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const answer = await emulator.fetch(request);
    const headers = new Headers(answer.headers);
    headers.delete('content-length');
    // The first content in the body: a whole answer's, or a stream's first delta.
    const body = (await answer.text()).replace('"content":"', '"content":"\\n  ');
    return new Response(body, { status: answer.status, headers });
  });
}
