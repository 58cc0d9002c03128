/**
 * A schema answered by a forced tool call whose arguments fail the schema (or are no JSON),
 * finish `tool_calls`: `withStructuredOutput(schema, { method: 'functionCalling', includeRaw:
 * true })` gives `parsed: null`, and its `raw` must say what `ChatOpenAI`'s says of the same
 * bytes — `response_metadata.finish_reason` `tool_calls` and the call (arguments parsed in
 * `tool_calls`, else in `invalid_tool_calls`) — whole, streamed, and when the call asks core to
 * refuse the answer itself (`structuredOutput.lastAnswer: 'checked'`: the raw message is built
 * from core's `invalid_structured_output`, whose `invalidOutput` keeps the finish and the call).
 */
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { GatewayChatModel } from '@infergate/langchain';
import type { AIMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const BASE_URL = 'https://raw-invalid.test/v1';
const API_KEY = DEFAULT_KEYS.full;
const MODEL = 'community/tools';
const Place = z.object({ city: z.string() });
const USAGE = { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 };
const HEAD = { id: 'chatcmpl-raw', created: 1, model: MODEL };

type Body = {
  stream?: boolean;
  tool_choice?: { function?: { name: string } };
  tools?: { function: { name: string } }[];
};

/** Completion chunks (`data:` events), then `[DONE]`. */
function sse(chunks: object[]): string {
  const events = chunks.map(
    (chunk) =>
      `data: ${JSON.stringify({ ...HEAD, object: 'chat.completion.chunk', ...chunk })}\n\n`,
  );
  return `${events.join('')}data: [DONE]\n\n`;
}

/** The emulator's catalog; every chat answered with one call of the tool asked for, `args`. */
function answering(args: string): typeof fetch {
  const emulator = createEmulator();
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return emulator.fetch(request);
    const body = (await request.json()) as Body;
    const name = body.tool_choice?.function?.name ?? body.tools?.[0]?.function.name ?? 'answer';
    const headers = { 'x-service-model': MODEL };
    if (!body.stream) {
      const call = { id: 'call_1', type: 'function', function: { name, arguments: args } };
      const message = { role: 'assistant', content: null, tool_calls: [call] };
      const choices = [{ index: 0, message, finish_reason: 'tool_calls' }];
      return Response.json(
        { ...HEAD, object: 'chat.completion', choices, usage: USAGE },
        { headers },
      );
    }
    const first = { index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } };
    const piece = { index: 0, function: { arguments: args } };
    const text = sse([
      { choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [first] } }] },
      { choices: [{ index: 0, delta: { tool_calls: [piece] } }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      { choices: [], usage: USAGE },
    ]);
    return new Response(text, { headers: { ...headers, 'content-type': 'text/event-stream' } });
  };
}

/** What a raw message says, as compared. */
function rawFields(raw: AIMessage) {
  return {
    finish_reason: raw.response_metadata.finish_reason,
    tool_calls: raw.tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
    invalid_tool_calls: raw.invalid_tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
  };
}

type RawResult = { raw: AIMessage; parsed: unknown; parsingError?: unknown };
type Structured = {
  invoke(input: string, options?: object): Promise<RawResult>;
  stream(input: string): Promise<AsyncIterable<RawResult>>;
};
const config = { method: 'functionCalling', includeRaw: true, name: 'place' };
const structured = (model: { withStructuredOutput: unknown }) =>
  (model.withStructuredOutput as (schema: unknown, config: object) => Structured)(Place, config);

describe.each([
  ['arguments that break the schema', '{"city":5}'],
  ['arguments that are no JSON', 'nope'],
])("withStructuredOutput({ method: 'functionCalling', includeRaw: true }), %s", (_, args) => {
  const fetch = answering(args);
  const anchor = async () => {
    const chatOpenAI = new ChatOpenAI({
      model: MODEL,
      apiKey: API_KEY,
      configuration: { baseURL: BASE_URL, fetch },
    });
    const result = await structured(chatOpenAI).invoke('Where?');
    expect(result.parsed).toBeNull();
    return rawFields(result.raw);
  };
  const ours = () =>
    structured(
      new GatewayChatModel(MODEL, { baseURL: BASE_URL, apiKey: API_KEY, fetch, maxRetries: 0 }),
    );

  it("invoke: parsed null, raw says what ChatOpenAI's raw says (finish tool_calls, the call)", async () => {
    const expected = await anchor();
    expect(expected.finish_reason).toBe('tool_calls');
    const { raw, parsed, parsingError } = await ours().invoke('Where?');
    expect(parsed).toBeNull();
    expect(parsingError).toBeDefined();
    expect(rawFields(raw)).toEqual(expected);
  });

  it("stream: the last result's raw says the same", async () => {
    const expected = await anchor();
    let last: RawResult | undefined;
    for await (const result of await ours().stream('Where?')) last = result;
    expect(last?.parsed).toBeNull();
    expect(rawFields(last!.raw)).toEqual(expected);
  });

  it("lastAnswer 'checked' (core refuses the answer): the raw says the same", async () => {
    const expected = await anchor();
    const checked = { structuredOutput: { lastAnswer: 'checked' } };
    const { raw, parsed, parsingError } = await ours().invoke('Where?', checked);
    expect(parsed).toBeNull();
    expect(parsingError).toBeDefined();
    expect(rawFields(raw)).toEqual(expected);
  });
});
