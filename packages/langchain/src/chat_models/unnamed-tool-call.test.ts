// docs/gateway-protocol.md §4.4: a streamed tool call that never got a function name is no call
// to run: an `invalid_tool_call` (as `ChatOpenAI` keeps it out of `tool_calls`), never a call of a
// tool named "" that an agent would run.
import { chatsAnsweredBy, emulate, sseReadByRead } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../index';

const emulated = await emulate();
afterAll(() => emulated.close());

const MODEL = 'community/tools';
const event = (choices: object[]) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const ROLE = event([{ index: 0, delta: { role: 'assistant' }, finish_reason: null }]);
const NAMELESS = event([
  {
    index: 0,
    delta: { tool_calls: [{ index: 0, function: { arguments: '{"q":1}' } }] },
    finish_reason: null,
  },
]);
const TOOL_CALLS = event([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]);
const LOOKUP = {
  type: 'function' as const,
  function: { name: 'lookup', parameters: { type: 'object', properties: {} } },
};

function modelSending(text: string, streaming = false) {
  const fetch = chatsAnsweredBy(emulated.connection, () => sseReadByRead([text]));
  return new GatewayChatModel(MODEL, { ...emulated.connection, fetch, streaming }).bindTools([
    LOOKUP,
  ]);
}

const expectInvalidOnly = (message: AIMessageChunk | undefined) => {
  expect(message?.tool_calls).toEqual([]);
  expect(message?.invalid_tool_calls).toEqual([
    expect.objectContaining({ name: '', args: '{"q":1}', error: expect.any(String) }),
  ]);
};

describe.each([
  ['before [DONE]', `${ROLE}${NAMELESS}${TOOL_CALLS}${DONE}`],
  ['after [DONE]', `${ROLE}${DONE}${NAMELESS}${TOOL_CALLS}`],
])('a streamed call without a function name (%s)', (_, text) => {
  it('stream(): joined, it is an invalid tool call, not a call', async () => {
    let joined: AIMessageChunk | undefined;
    for await (const chunk of await modelSending(text).stream('hi')) {
      joined = joined ? concat(joined, chunk) : chunk;
    }
    expectInvalidOnly(joined);
  });

  it('invoke() reading a stream: an invalid tool call, not a call', async () => {
    const message = await modelSending(text, true).invoke('hi');
    expectInvalidOnly(message as AIMessageChunk);
  });
});
