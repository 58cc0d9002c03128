/**
 * LangChain's chat-model unit contract (the behaviours its standard unit tests check), in our own
 * words: construction with the standard parameters, `_llmType`, LangSmith
 * params, `bindTools` with every tool format LangChain accepts, `withStructuredOutput` with zod
 * and JSON schema, serialisation without the key, `profile`, and aborted signals. Each goes
 * through LangChain's own entry points to the emulator's fetch handler.
 */

import { createGatewayClient, GatewayError } from '@infergate/core';
import { emulate } from '@infergate/emulator/testing';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { LangSmithParams } from '@langchain/core/language_models/chat_models';
import { load } from '@langchain/core/load';
import { type AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { StructuredTool, type StructuredToolParams, tool } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { GatewayChatModel, type GatewayChatModelFields } from '../src/index';
import { API_KEY, recordingGateway } from './helpers';

const MODEL = 'community/general';

/** The parameters LangChain's unit suite builds every chat model with. */
const STANDARD_PARAMS = {
  temperature: 0,
  maxTokens: 100,
  timeout: 60,
  stopSequences: [] as string[],
  maxRetries: 2,
};

const personSchema = z
  .object({
    name: z.string().describe('Name of the person'),
    age: z.number().int().positive().describe('Age of the person'),
  })
  .describe('A person');

class PersonTool extends StructuredTool {
  name = 'person_tool';
  description = 'A person';
  schema = personSchema;
  async _call(input: z.infer<typeof personSchema>) {
    return JSON.stringify(input);
  }
}

const PERSON_JSON_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Name of the person' },
    age: { type: 'integer', exclusiveMinimum: 0, description: 'Age of the person' },
  },
  required: ['name', 'age'],
  additionalProperties: false,
};

/**
 * LangChain's suite only builds models with `timeout: 60` (seconds for some providers); ours is in
 * milliseconds, so the models that make calls get a minute.
 */
const CALL_PARAMS = { ...STANDARD_PARAMS, timeout: 60_000 };

async function standardModel(extra: Partial<GatewayChatModelFields> = {}) {
  const recording = await recordingGateway();
  const model = new GatewayChatModel({
    model: MODEL,
    ...CALL_PARAMS,
    ...recording.connection,
    ...extra,
  });
  return { model, ...recording };
}

describe('GatewayChatModel: construction', () => {
  it('builds with the standard parameters and keeps them', async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel({ model: MODEL, ...STANDARD_PARAMS, ...connection });
    expect(model.model).toBe(MODEL);
    expect(model.temperature).toBe(0);
    expect(model.maxTokens).toBe(100);
    expect(model.timeout).toBe(60);
    expect(model.maxRetries).toBe(2);
    expect(model.stop).toEqual([]);
  });

  it('builds with an apiKey field', async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel({
      model: MODEL,
      ...STANDARD_PARAMS,
      ...connection,
      apiKey: 'test',
    });
    expect(model).toBeInstanceOf(GatewayChatModel);
  });

  it('builds with streaming: true', async () => {
    const { model } = await standardModel({ streaming: true });
    expect(model.streaming).toBe(true);
  });

  it('names its LLM type', async () => {
    expect((await standardModel()).model._llmType()).toBe('infergate');
  });

  it('reports exactly the standard LangSmith params', async () => {
    const { model } = await standardModel({ stop: ['END'] });
    const params = model.getLsParams({} as never);
    const expected: Required<
      Pick<
        LangSmithParams,
        | 'ls_provider'
        | 'ls_model_name'
        | 'ls_model_type'
        | 'ls_temperature'
        | 'ls_max_tokens'
        | 'ls_stop'
      >
    > = {
      ls_provider: 'infergate',
      ls_model_name: MODEL,
      ls_model_type: 'chat',
      ls_temperature: 0,
      ls_max_tokens: 100,
      ls_stop: ['END'],
    };
    expect(params).toEqual(expected);
    expect(model.getLsParams({ stop: ['CALL'] } as never).ls_stop).toEqual(['CALL']);
  });
});

describe('GatewayChatModel: bindTools with every tool format', () => {
  const formats: [string, () => Parameters<GatewayChatModel['bindTools']>[0][number]][] = [
    ['a StructuredTool subclass', () => new PersonTool()],
    [
      'a tool() function',
      () =>
        tool(async (input) => JSON.stringify(input), {
          name: 'person_tool',
          description: 'A person',
          schema: personSchema,
        }),
    ],
    [
      'StructuredToolParams with a zod schema',
      (): StructuredToolParams => ({
        name: 'person_tool',
        description: 'A person',
        schema: personSchema,
      }),
    ],
    [
      'StructuredToolParams with a zod 3 schema',
      (): StructuredToolParams => ({
        name: 'person_tool',
        description: 'A person',
        schema: z3.object({
          name: z3.string().describe('Name of the person'),
          age: z3.number().int().positive().describe('Age of the person'),
        }),
      }),
    ],
    [
      'StructuredToolParams with a JSON schema',
      () => ({ name: 'person_tool', description: 'A person', schema: PERSON_JSON_SCHEMA }),
    ],
    [
      'an OpenAI-format tool',
      () => ({
        type: 'function' as const,
        function: { name: 'person_tool', description: 'A person', parameters: PERSON_JSON_SCHEMA },
      }),
    ],
    [
      'a runnable turned into a tool',
      () =>
        RunnableLambda.from((input: unknown) => JSON.stringify(input)).asTool({
          name: 'person_tool',
          description: 'A person',
          schema: personSchema,
        }),
    ],
  ];

  it.each(formats)('%s is sent as a function tool and called', async (_label, make) => {
    const { model, bodies } = await standardModel();
    const answer = await model.bindTools([make()]).invoke('Tell me about person_tool');
    const sent = (bodies[0]?.tools as Record<string, unknown>[] | undefined) ?? [];
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      type: 'function',
      function: {
        name: 'person_tool',
        description: 'A person',
        parameters: {
          type: 'object',
          properties: { name: { type: 'string' }, age: { type: 'integer' } },
          required: ['name', 'age'],
        },
      },
    });
    expect(answer.tool_calls).toHaveLength(1);
    expect(answer.tool_calls?.[0]).toMatchObject({ name: 'person_tool', type: 'tool_call' });
    expect(personSchema.parse(answer.tool_calls?.[0]?.args)).toBeTruthy();
  });

  it.each([
    ['any', 'required'],
    ['required', 'required'],
    ['auto', 'auto'],
    ['none', 'none'],
    ['person_tool', { type: 'function', function: { name: 'person_tool' } }],
  ] as const)("tool_choice '%s' is sent as %j", async (choice, sent) => {
    const { model, bodies } = await standardModel();
    await model.bindTools([new PersonTool()], { tool_choice: choice }).invoke('hello');
    expect(bodies[0]?.tool_choice).toEqual(sent);
  });
});

describe('GatewayChatModel: withStructuredOutput', () => {
  const schemas: [string, () => unknown][] = [
    ['zod 4', () => personSchema],
    [
      'zod 3',
      () =>
        z3.object({
          name: z3.string().describe('Name of the person'),
          age: z3.number().int().positive().describe('Age of the person'),
        }),
    ],
    ['JSON schema', () => ({ title: 'person', ...PERSON_JSON_SCHEMA })],
  ];
  const methods = ['jsonSchema', 'functionCalling'] as const;

  for (const [label, schema] of schemas) {
    it.each(methods)(`${label} through %s returns a valid object`, async (method) => {
      const { model } = await standardModel();
      const structured = model.withStructuredOutput(schema() as Record<string, unknown>, {
        name: 'person',
        method,
      });
      expect(structured).toBeDefined();
      const result = await structured.invoke('Describe "Ada"');
      expect(personSchema.parse(result)).toEqual(result);
    });
  }
});

describe('GatewayChatModel: the traced structured-output format', () => {
  it.each(['jsonSchema', 'functionCalling', 'jsonMode'] as const)(
    '%s: the method and the schema as toJsonSchema writes it',
    async (method) => {
      const { model } = await standardModel();
      let options: Record<string, unknown> | undefined;
      const recorder = BaseCallbackHandler.fromMethods({
        handleChatModelStart(_llm, _messages, _runId, _parent, extraParams) {
          options = extraParams?.options as Record<string, unknown>;
        },
      });
      await model
        .withStructuredOutput(personSchema, { name: 'person', method })
        .invoke('Describe "Ada"', { callbacks: [recorder] })
        .catch(() => undefined); // JSON mode answers with its own shape; only the trace matters
      expect(options?.ls_structured_output_format).toEqual({
        kwargs: { method },
        schema: toJsonSchema(personSchema),
      });
    },
  );
});

describe('GatewayChatModel: serialisation', () => {
  it('writes no key, only a secret reference, and loads back with its fields', async () => {
    const { model, connection } = await standardModel({
      apiKey: API_KEY,
      topP: 0.5,
      stop: ['END'],
    });
    const json = JSON.stringify(model);
    expect(json).not.toContain(API_KEY);
    expect(JSON.parse(json).kwargs.api_key).toEqual({
      lc: 1,
      type: 'secret',
      id: ['INFERGATE_API_KEY'],
    });
    const loaded = await load<GatewayChatModel>(json, {
      secretsMap: { INFERGATE_API_KEY: API_KEY },
      optionalImportsMap: { 'infergate/chat_models': { GatewayChatModel } },
    });
    expect(loaded).toBeInstanceOf(GatewayChatModel);
    expect(loaded.baseURL).toBe(connection.baseURL);
    expect(loaded.client.baseURL).toBe(connection.baseURL);
    expect(loaded.model).toBe(MODEL);
    expect(loaded.temperature).toBe(0);
    expect(loaded.maxTokens).toBe(100);
    expect(loaded.topP).toBe(0.5);
    expect(loaded.stop).toEqual(['END']);
    expect(loaded.maxRetries).toBe(2);
    expect(loaded.timeout).toBe(60_000);
  });
});

describe('GatewayChatModel: serialisation of a model built with a client', () => {
  it('loads back pointing where the client pointed', async () => {
    const { connection } = await emulate();
    const client = createGatewayClient(connection);
    const model = new GatewayChatModel({ model: MODEL, client });
    const loaded = await load<GatewayChatModel>(JSON.stringify(model), {
      secretsMap: { INFERGATE_API_KEY: API_KEY },
      optionalImportsMap: { 'infergate/chat_models': { GatewayChatModel } },
    });
    expect(loaded.client.baseURL).toBe(connection.baseURL);
  });
});

describe('GatewayChatModel: profile', () => {
  it('is empty before the capabilities are known, then follows them', async () => {
    const { model } = await standardModel();
    expect(model.profile).toEqual({});
    await model.invoke('hello');
    expect(model.profile).toMatchObject({
      toolCalling: true,
      toolChoice: true,
      structuredOutput: true,
    });
  });

  it('follows capabilities given to the constructor', async () => {
    const { model } = await standardModel({ capabilities: ['chat', 'streaming'] });
    expect(model.profile).toMatchObject({
      toolCalling: false,
      toolChoice: false,
      structuredOutput: false,
    });
  });
});

describe('GatewayChatModel: an aborted signal', () => {
  it('makes invoke reject before any request', async () => {
    const { model, bodies } = await standardModel();
    const failure = await model
      .invoke([new HumanMessage('hello')], { signal: AbortSignal.abort() })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(bodies).toHaveLength(0);
  });

  it('makes stream reject or yield nothing', async () => {
    const { model, bodies } = await standardModel();
    const chunks: AIMessageChunk[] = [];
    try {
      for await (const chunk of await model.stream([new HumanMessage('hello')], {
        signal: AbortSignal.abort(),
      })) {
        chunks.push(chunk);
      }
    } catch (error) {
      expect(error).toBeInstanceOf(Error);
    }
    expect(chunks).toHaveLength(0);
    expect(bodies).toHaveLength(0);
  });

  it('is reported as a GatewayError `aborted`', async () => {
    const { model } = await standardModel({ capabilities: ['chat', 'streaming'] });
    const failure = await model.invoke('hello', { signal: AbortSignal.abort() }).catch((e) => e);
    expect(failure).toBeInstanceOf(GatewayError);
    expect((failure as GatewayError).code).toBe('aborted');
  });
});
