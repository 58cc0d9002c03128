// docs/gateway-protocol.md §4.4 (a call that never got a name is no call to run), §5.2/§5.3 (an
// error after `[DONE]` while a choice is still being read fails the stream, as without `[DONE]`).
import { chatsAnsweredBy, emulate, readSplits, sseReadByRead } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../errors/errors';
import { type ChatRequest, createGatewayClient } from '../../index';

const MODEL = 'community/tools';
const event = (choices: object[]) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const delta = (index: number, body: object, finish: string | null = null) => ({
  index,
  delta: body,
  finish_reason: finish,
});
const ROLE = event([delta(0, { role: 'assistant' })]);
const NAMELESS = event([
  delta(0, { tool_calls: [{ index: 0, function: { arguments: '{"q":1}' } }] }),
]);
const TOOL_CALLS = event([delta(0, {}, 'tool_calls')]);
const TOOLS: ChatRequest['tools'] = [
  { type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } },
];

async function clientReading(reads: string[]) {
  const { connection } = await emulate();
  const fetch = chatsAnsweredBy(connection, () => sseReadByRead(reads));
  return createGatewayClient({ ...connection, maxRetries: 0, fetch });
}

describe('a streamed tool call that never got a function name', () => {
  it.each([
    ['before [DONE]', `${ROLE}${NAMELESS}${TOOL_CALLS}${DONE}`],
    ['after [DONE]', `${ROLE}${DONE}${NAMELESS}${TOOL_CALLS}`],
  ])('is not in toolCalls but in unnamedToolCalls (%s)', async (_, text) => {
    for (const reads of readSplits(text, [1, 7])) {
      const client = await clientReading(reads);
      const stream = await client.chatStream({
        model: MODEL,
        messages: [{ role: 'user', content: 'hi' }],
        tools: TOOLS,
      });
      const result = await stream.result();
      expect(result.toolCalls).toEqual([]);
      expect(result.unnamedToolCalls).toEqual([
        { id: expect.stringMatching(/^call_0_0_/), name: '', arguments: '{"q":1}' },
      ]);
      expect(result.finishReason).toBe('tool_calls');
    }
  });

  it('a named call of the same answer is still handed out, and no unnamedToolCalls', async () => {
    const named = event([
      delta(0, {
        tool_calls: [{ index: 0, id: 't1', function: { name: 'lookup', arguments: '{}' } }],
      }),
    ]);
    const client = await clientReading([`${ROLE}${named}${TOOL_CALLS}${DONE}`]);
    const stream = await client.chatStream({
      model: MODEL,
      messages: [{ role: 'user', content: 'hi' }],
      tools: TOOLS,
    });
    const result = await stream.result();
    expect(result.toolCalls).toEqual([{ id: 't1', name: 'lookup', arguments: '{}' }]);
    expect(result).not.toHaveProperty('unnamedToolCalls');
  });
});

describe('n=2: an error event after [DONE] while choice 1 is still being read', () => {
  const head =
    event([
      delta(0, { role: 'assistant', content: 'A' }),
      delta(1, { role: 'assistant', content: 'B' }),
    ]) + event([delta(0, {}, 'stop')]);
  const tail = `${event([delta(1, { content: ' more' })])}data: {"error":{"message":"boom","code":500}}\n\n`;

  it.each([
    ['without [DONE]', head + tail],
    ['[DONE] before choice 1 ends', head + DONE + tail],
  ])('fails the stream with upstream_error (%s)', async (_, text) => {
    for (const reads of readSplits(text, [1, 7])) {
      const client = await clientReading(reads);
      const failure = await (async () => {
        const stream = await client.chatStream({
          model: MODEL,
          n: 2,
          messages: [{ role: 'user', content: 'hi' }],
        });
        for await (const _event of stream);
      })().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isGatewayError(failure) && failure.code).toBe('upstream_error');
    }
  });
});
