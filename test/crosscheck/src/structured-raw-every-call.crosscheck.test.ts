/**
 * A schema answered by a forced tool call beside other calls (one of a tool nobody offered, one
 * whose arguments are no JSON), finish `tool_calls`: `withStructuredOutput(schema, { method:
 * 'functionCalling', includeRaw: true })`'s `raw` must list at least every call `ChatOpenAI`'s
 * lists for the same bytes, in the same order and lists (`tool_calls`, `invalid_tool_calls`,
 * OpenAI's raw form in `additional_kwargs.tool_calls`) — the answer passing and failing its schema.
 *
 * One deliberate difference, pinned last: a forced call whose `arguments` are the empty string.
 * Core reads blank arguments as a call without arguments, `{}` (chat/tool-arguments.ts, the one
 * reading for every call and adapter: a plain `invoke` gives the same call `args: {}`), so the
 * raw lists the call with `args: {}` and its raw arguments `{}`; `ChatOpenAI` lists it as an
 * invalid tool call (`JSON.parse('')` fails). The schema check saw `{}`, and the raw says so.
 */
import { chatsAnsweredBy, emulate, oneMessageAnswer } from '@infergate/emulator/testing';
import { GatewayChatModel } from '@infergate/langchain';
import type { AIMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const MODEL = 'community/tools';
const Place = z.object({ city: z.string() });

type RawResult = { raw: AIMessage; parsed: unknown };
type Structured = { invoke(input: string): Promise<RawResult> };
const config = { method: 'functionCalling', includeRaw: true, name: 'place' };
const structured = (model: { withStructuredOutput: unknown }) =>
  (model.withStructuredOutput as (schema: unknown, config: object) => Structured)(Place, config);

/** Both models, their chats answered by the forced call with `args`, then two other calls. */
async function bothAnswering(args: string) {
  const gateway = await emulate();
  const fetch = chatsAnsweredBy(gateway.connection, (body) => {
    const name = (body.tools as { function: { name: string } }[])[0]!.function.name;
    const call = (id: string, called: string, text: string) => ({
      id,
      type: 'function',
      function: { name: called, arguments: text },
    });
    const tool_calls = [
      call('call_1', name, args),
      call('call_2', 'lookup', '{"q":"x"}'),
      call('call_3', 'broken', 'nope'),
    ];
    return oneMessageAnswer(MODEL, { content: null, tool_calls }, 'tool_calls', false);
  });
  const { baseURL, apiKey } = gateway.connection;
  const anchor = new ChatOpenAI({ model: MODEL, apiKey, configuration: { baseURL, fetch } });
  const ours = new GatewayChatModel(MODEL, { baseURL, apiKey, fetch, maxRetries: 0 });
  return { anchor: structured(anchor), ours: structured(ours) };
}

/** What a raw message lists of its calls. */
function listed(raw: AIMessage) {
  return {
    tool_calls: raw.tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
    invalid_tool_calls: raw.invalid_tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
    raw: raw.additional_kwargs.tool_calls,
    finish_reason: raw.response_metadata.finish_reason,
  };
}

describe("withStructuredOutput({ includeRaw: true }): raw lists every call ChatOpenAI's lists", () => {
  it.each([
    ['the answer passes', '{"city":"Oslo"}'],
    ['the forced call breaks the schema', '{"city":5}'],
  ])('%s', async (_, args) => {
    const { anchor, ours } = await bothAnswering(args);
    const expected = listed((await anchor.invoke('Where?')).raw);
    expect(expected.raw).toHaveLength(3);
    expect(listed((await ours.invoke('Where?')).raw)).toEqual(expected);
  });

  it('arguments "" (deliberate): ours lists the call with args {}, ChatOpenAI as invalid', async () => {
    const { anchor, ours } = await bothAnswering('');
    const theirs = listed((await anchor.invoke('Where?')).raw);
    expect(theirs.invalid_tool_calls?.[0]).toEqual({ name: 'place', args: '', id: 'call_1' });
    const result = await ours.invoke('Where?');
    expect(result.parsed).toBeNull();
    const mine = listed(result.raw);
    expect(mine.tool_calls?.[0]).toEqual({ name: 'place', args: {}, id: 'call_1' });
    // Every other call as ChatOpenAI lists it.
    expect(mine.tool_calls?.slice(1)).toEqual(theirs.tool_calls);
    expect(mine.invalid_tool_calls).toEqual(theirs.invalid_tool_calls?.slice(1));
  });
});
