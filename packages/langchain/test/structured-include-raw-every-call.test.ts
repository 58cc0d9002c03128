// withStructuredOutput(schema, { includeRaw: true }): the raw message lists every tool call the
// server sent, in the order sent, as ChatOpenAI's raw message does (the forced call that served
// the answer and any other: parsed in `tool_calls`, arguments that are no JSON object in
// `invalid_tool_calls`, all in OpenAI's raw form in `additional_kwargs.tool_calls`) — when the
// answer passes, when it is handed on unchecked (`parsed: null`), and when core refuses it
// (`structuredOutput.lastAnswer: 'checked'`). The model's own answer still hands no call on.
import { chatsAnsweredBy, emulate, oneMessageAnswer } from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src';

const Place = z.object({ city: z.string() });
/** A model that serves a schema by a forced tool call only. */
const TOOLS_ONLY = 'community/tools';

type RawResult = { raw: AIMessage; parsed: unknown; parsingError?: unknown };

const rawCall = (id: string, name: string, args: string) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
});

/** A model whose every chat answer is the forced call with `args`, then two other calls. */
async function answeringCalls(args: string) {
  const gateway = await emulate();
  const sent = (name: string) => [
    rawCall('call_1', name, args),
    rawCall('call_2', 'lookup', '{"q":"x"}'),
    rawCall('call_3', 'broken', 'nope'),
  ];
  const fetch = chatsAnsweredBy(gateway.connection, (body) => {
    const name = (body.tools as { function: { name: string } }[])[0]!.function.name;
    const message = { content: null, tool_calls: sent(name) };
    return oneMessageAnswer(body.model, message, 'tool_calls', body.stream === true);
  });
  const model = new GatewayChatModel(TOOLS_ONLY, { ...gateway.connection, fetch, maxRetries: 0 });
  const structured = model.withStructuredOutput(Place, {
    method: 'functionCalling',
    includeRaw: true,
    name: 'place',
  });
  return { structured, sent: sent('place') };
}

/** What the raw message lists of its calls, as ChatOpenAI's does. */
function listed(raw: AIMessage) {
  return {
    tool_calls: raw.tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
    invalid: raw.invalid_tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
    rawCalls: raw.additional_kwargs.tool_calls,
    finish: raw.response_metadata.finish_reason,
  };
}

describe('withStructuredOutput({ includeRaw: true }): raw lists every call the server sent', () => {
  it('invoke, the answer passes: the forced call, the other call, the one with no JSON', async () => {
    const { structured, sent } = await answeringCalls('{"city":"Oslo"}');
    const result = (await structured.invoke('Where?')) as RawResult;
    expect(result.parsed).toEqual({ city: 'Oslo' });
    expect(listed(result.raw)).toEqual({
      tool_calls: [
        { name: 'place', args: { city: 'Oslo' }, id: 'call_1' },
        { name: 'lookup', args: { q: 'x' }, id: 'call_2' },
      ],
      invalid: [{ name: 'broken', args: 'nope', id: 'call_3' }],
      rawCalls: sent,
      finish: 'tool_calls',
    });
  });

  it('invoke, the forced call breaks the schema: parsed null, the same calls listed', async () => {
    const { structured, sent } = await answeringCalls('{"town":5}');
    const result = (await structured.invoke('Where?')) as RawResult;
    expect(result.parsed).toBeNull();
    expect(result.parsingError).toBeDefined();
    expect(listed(result.raw)).toEqual({
      tool_calls: [
        { name: 'place', args: { town: 5 }, id: 'call_1' },
        { name: 'lookup', args: { q: 'x' }, id: 'call_2' },
      ],
      invalid: [{ name: 'broken', args: 'nope', id: 'call_3' }],
      rawCalls: sent,
      finish: 'tool_calls',
    });
  });

  it("invoke with lastAnswer 'checked' (core refuses the answer): the same calls listed", async () => {
    const { structured, sent } = await answeringCalls('{"town":5}');
    const checked = { structuredOutput: { lastAnswer: 'checked' as const } };
    const result = (await structured.invoke('Where?', checked)) as RawResult;
    expect(result.parsed).toBeNull();
    expect(listed(result.raw).tool_calls).toEqual([
      { name: 'place', args: { town: 5 }, id: 'call_1' },
      { name: 'lookup', args: { q: 'x' }, id: 'call_2' },
    ]);
    expect(listed(result.raw).invalid).toEqual([{ name: 'broken', args: 'nope', id: 'call_3' }]);
    expect(listed(result.raw).rawCalls).toEqual(sent);
  });
});
