/**
 * A schema answered by a forced tool call, finish `tool_calls`, on exact bytes (whole and
 * streamed): ours reports the answer as JSON text finishing `stop` (docs/gateway-protocol.md §4.8
 * item 5), yet its raw answer must say what the anchors say of the same bytes.
 * - LangChain: `withStructuredOutput(schema, { includeRaw: true, method })`'s `raw` has at least
 *   what `ChatOpenAI`'s has: `response_metadata.finish_reason`, `tool_calls`, usage and id
 *   (`ChatOpenAI.stream` with `includeRaw` yields nothing on these bytes: its `invoke` is the anchor).
 * - AI SDK: `generateText` / `streamText` with `Output.object`: `rawFinishReason` as
 *   `@ai-sdk/openai-compatible` gives it (its unified `tool-calls` stays ours `stop`: the JSON is
 *   the answer's text).
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createGateway } from '@infergate/ai-sdk';
import { DEFAULT_KEYS } from '@infergate/emulator';
import type { AIMessage } from '@langchain/core/messages';
import { generateText, type LanguageModel, Output, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  chatOpenAIOn,
  forcedToolCalls,
  gatewayChatModelOn,
  TOOLS_MODEL as MODEL,
  PLACE,
  type RawResult,
  structuredOf,
} from './answering';

const BASE_URL = 'https://raw-finish.test/v1';
const API_KEY = DEFAULT_KEYS.full;

/** What a raw message says, as compared. */
function rawFields(raw: AIMessage) {
  return {
    finish_reason: raw.response_metadata.finish_reason,
    tool_calls: raw.tool_calls?.map(({ args, id }) => ({ args, id })),
    usage: {
      input_tokens: raw.usage_metadata?.input_tokens,
      output_tokens: raw.usage_metadata?.output_tokens,
      total_tokens: raw.usage_metadata?.total_tokens,
    },
    id: raw.id,
  };
}

const METHODS = ['functionCalling', 'jsonSchema', 'jsonMode'] as const;

describe.each(METHODS)("withStructuredOutput({ method: '%s', includeRaw: true })", (method) => {
  const fetch = forcedToolCalls('{"city":"Oslo"}');
  const structured = (model: { withStructuredOutput: unknown }) =>
    structuredOf(model, PLACE, { method, includeRaw: true, name: 'place' });
  const anchor = async () => {
    const chatOpenAI = chatOpenAIOn(BASE_URL, fetch);
    const { raw } = await structured(chatOpenAI).invoke('Where?');
    return rawFields(raw);
  };
  const ours = () => structured(gatewayChatModelOn(BASE_URL, fetch));

  it("invoke: raw says what ChatOpenAI's raw says (finish tool_calls, the call, usage, id)", async () => {
    const expected = await anchor();
    expect(expected.finish_reason).toBe('tool_calls');
    const { raw, parsed } = await ours().invoke('Where?');
    expect(parsed).toEqual({ city: 'Oslo' });
    expect(rawFields(raw)).toEqual(expected);
  });

  it("stream: the last result's raw says the same", async () => {
    const expected = await anchor();
    let last: RawResult | undefined;
    for await (const result of await ours().stream('Where?')) last = result;
    expect(last?.parsed).toEqual({ city: 'Oslo' });
    expect(rawFields(last!.raw)).toEqual(expected);
  });
});

describe('Output.object: the raw finish reason as @ai-sdk/openai-compatible gives it', () => {
  const fetch = forcedToolCalls('{"city":"Oslo"}');
  const settings = { baseURL: BASE_URL, apiKey: API_KEY, fetch };
  const anchorModel = createOpenAICompatible({
    name: 'anchor',
    ...settings,
    supportsStructuredOutputs: true,
  }).chatModel(MODEL);
  const ourModel = createGateway(settings)(MODEL);
  const output = Output.object({ schema: PLACE });
  const generated = (model: LanguageModel) => generateText({ model, prompt: 'Where?', output });

  it('generateText: rawFinishReason tool_calls, the object read', async () => {
    const expected = await generated(anchorModel);
    expect(expected.rawFinishReason).toBe('tool_calls');
    const result = await generated(ourModel);
    expect(result.rawFinishReason).toBe(expected.rawFinishReason);
    expect(result.finishReason).toBe('stop');
    expect(result.output).toEqual({ city: 'Oslo' });
  });

  it('streamText: rawFinishReason tool_calls', async () => {
    const raws: (string | undefined)[] = [];
    for (const model of [anchorModel, ourModel]) {
      const result = streamText({ model, prompt: 'Where?', output });
      await result.consumeStream();
      raws.push(await result.rawFinishReason);
    }
    expect(raws).toEqual(['tool_calls', 'tool_calls']);
  });
});
