// withStructuredOutput({ method: 'functionCalling', includeRaw: true }): the raw message has the
// forced tool call the model answered by, as ChatOpenAI's has it (`tool_calls` with its name,
// parsed arguments and id); the model's own answer keeps it out (an agent's providerStrategy
// reads an answer with no tool call as its structured answer).
import { emulate } from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import type { ChatGeneration, LLMResult } from '@langchain/core/outputs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src';

const Person = z.object({ name: z.string(), age: z.number() });
/** A model that serves a schema by a forced tool call only. */
const TOOLS_ONLY = 'community/tools';

type RawResult = { raw: AIMessage; parsed: unknown; parsingError?: unknown };

/** An emulated gateway whose connection keeps the text of every chat answer it was sent. */
async function answersKept() {
  const gateway = await emulate({
    scenario: {
      models: {
        [TOOLS_ONLY]: {
          owned_by: 'service-community',
          capabilities: ['chat', 'streaming', 'tools'],
          online: true,
        },
      },
    },
  });
  const answers: Promise<string>[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await gateway.fetch(new Request(input, init));
    if (new Request(input, init).url.endsWith('/chat/completions')) {
      answers.push(response.clone().text());
    }
    return response;
  };
  return { connection: { ...gateway.connection, fetch }, answers };
}

/** The id of the (one) tool call the answers sent, streamed or not. */
async function sentCallId(answers: Promise<string>[]): Promise<string | undefined> {
  const texts = await Promise.all(answers);
  return /"tool_calls":\[\{(?:"index":0,)?"id":"([^"]+)"/.exec(texts.join('\n'))?.[1];
}

/** TOOLS_ONLY's `withStructuredOutput` by a forced call named `person`, raw included; answers kept. */
async function forcedCallWithRaw() {
  const { connection, answers } = await answersKept();
  const structured = new GatewayChatModel(TOOLS_ONLY, connection).withStructuredOutput(Person, {
    method: 'functionCalling',
    includeRaw: true,
    name: 'person',
  });
  return { structured, answers };
}

describe("withStructuredOutput({ method: 'functionCalling', includeRaw: true })", () => {
  it('invoke: raw.tool_calls holds the forced call (name, parsed args, the id the model sent)', async () => {
    const { structured, answers } = await forcedCallWithRaw();
    const result = (await structured.invoke('Describe "Ada Lovelace"')) as RawResult;
    const id = await sentCallId(answers);
    expect(id).toEqual(expect.any(String));
    expect(result.raw.tool_calls).toEqual([
      { name: 'person', args: result.parsed, id, type: 'tool_call' },
    ]);
    expect(result.raw.additional_kwargs.tool_calls).toEqual([
      { id, type: 'function', function: { name: 'person', arguments: expect.any(String) } },
    ]);
    expect(Person.parse(result.parsed)).toEqual(result.parsed);
  });

  it('stream: the last result has the same raw tool call', async () => {
    const { structured, answers } = await forcedCallWithRaw();
    let last: RawResult | undefined;
    for await (const chunk of await structured.stream('Describe "Ada Lovelace"')) {
      last = chunk as RawResult;
    }
    const id = await sentCallId(answers);
    expect(id).toEqual(expect.any(String));
    expect(last?.raw.tool_calls).toEqual([
      { name: 'person', args: last?.parsed, id, type: 'tool_call' },
    ]);
  });

  it("the model's own answer keeps no tool call, with includeRaw or without", async () => {
    const { connection } = await answersKept();
    const model = new GatewayChatModel(TOOLS_ONLY, connection);
    const ended: AIMessage[] = [];
    const callbacks = [
      {
        handleLLMEnd(output: LLMResult) {
          ended.push((output.generations[0]![0] as ChatGeneration).message as AIMessage);
        },
      },
    ];
    await model
      .withStructuredOutput(Person, { method: 'functionCalling', includeRaw: true })
      .invoke('Describe "Ada Lovelace"', { callbacks });
    await model
      .withStructuredOutput(Person, { method: 'functionCalling' })
      .invoke('Describe "Ada Lovelace"', { callbacks });
    expect(ended).toHaveLength(2);
    for (const message of ended) {
      expect(message.tool_calls ?? []).toEqual([]);
      expect(message.additional_kwargs.tool_calls).toBeUndefined();
    }
  });

  it('a schema served by JSON text: raw has no tool call, as before', async () => {
    const { connection } = await answersKept();
    const model = new GatewayChatModel('community/general', connection);
    const structured = model.withStructuredOutput(Person, { includeRaw: true });
    const result = (await structured.invoke('Describe "Ada Lovelace"')) as RawResult;
    expect(result.raw.tool_calls ?? []).toEqual([]);
    expect(Person.parse(result.parsed)).toEqual(result.parsed);
  });
});
