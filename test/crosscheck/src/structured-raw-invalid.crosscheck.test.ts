/**
 * A schema answered by a forced tool call whose arguments fail the schema (or are no JSON),
 * finish `tool_calls`: `withStructuredOutput(schema, { method: 'functionCalling', includeRaw:
 * true })` gives `parsed: null`, and its `raw` must say what `ChatOpenAI`'s says of the same
 * bytes — `response_metadata.finish_reason` `tool_calls` and the call (arguments parsed in
 * `tool_calls`, else in `invalid_tool_calls`) — whole, streamed, and when the call asks core to
 * refuse the answer itself (`structuredOutput.lastAnswer: 'checked'`: the raw message is built
 * from core's `invalid_structured_output`, whose `invalidOutput` keeps the finish and the call).
 */
import type { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import {
  chatOpenAIOn,
  forcedToolCalls,
  gatewayChatModelOn,
  PLACE,
  type RawResult,
  structuredOf,
} from './answering';

const BASE_URL = 'https://raw-invalid.test/v1';

/** What a raw message says, as compared. */
function rawFields(raw: AIMessage) {
  return {
    finish_reason: raw.response_metadata.finish_reason,
    tool_calls: raw.tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
    invalid_tool_calls: raw.invalid_tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
  };
}

const config = { method: 'functionCalling', includeRaw: true, name: 'place' };
const structured = (model: { withStructuredOutput: unknown }) => structuredOf(model, PLACE, config);

describe.each([
  ['arguments that break the schema', '{"city":5}'],
  ['arguments that are no JSON', 'nope'],
])("withStructuredOutput({ method: 'functionCalling', includeRaw: true }), %s", (_, args) => {
  const fetch = forcedToolCalls(args);
  const anchor = async () => {
    const chatOpenAI = chatOpenAIOn(BASE_URL, fetch);
    const result = await structured(chatOpenAI).invoke('Where?');
    expect(result.parsed).toBeNull();
    return rawFields(result.raw);
  };
  const ours = () => structured(gatewayChatModelOn(BASE_URL, fetch, { maxRetries: 0 }));

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
