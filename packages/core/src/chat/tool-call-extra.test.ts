import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '../protocol/chat-result-types';
import type { ChatCompletionResponse } from '../protocol/wire-types';
import { readChatCompletion } from './read-chat-completion';
import { ChatStreamDecoder } from './stream/chat-stream-decoder';
import { thoughtSignatureContent, thoughtSignatureOf, toolCallOf } from './tool-call-extra';

const signed = (signature: string) => ({ google: { thought_signature: signature } });

function completion(toolCalls: unknown[]): ChatCompletionResponse {
  return {
    id: 'r1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gemini',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, tool_calls: toolCalls as never },
        finish_reason: 'tool_calls',
      },
    ],
  };
}

const call = (id: string, name: string, extra?: unknown) => ({
  id,
  type: 'function',
  function: { name, arguments: '{"city":"Paris"}' },
  ...(extra !== undefined ? { extra_content: extra } : {}),
});

describe("a tool call's extra_content (Gemini's thought signature) in a whole answer", () => {
  it('is kept on the call as sent; a call without one, or with a non-object, has none', () => {
    const extra = { ...signed('sig-A'), other: { kept: [1, 2] } };
    const answer = readChatCompletion(
      completion([call('c1', 'weather', extra), call('c2', 'time'), call('c3', 'x', 'text')]),
    );
    const [first, second, third] = answer?.toolCalls ?? [];
    expect(first?.extraContent).toBe(extra);
    expect(second).not.toHaveProperty('extraContent');
    expect(third).not.toHaveProperty('extraContent');
    expect(thoughtSignatureOf(first?.extraContent)).toBe('sig-A');
  });
});

const sseChunk = (toolCalls: unknown[]) =>
  `data: ${JSON.stringify({
    id: 'r1',
    object: 'chat.completion.chunk',
    model: 'gemini',
    choices: [{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: null }],
  })}\n\n`;
const FINISH = `data: ${JSON.stringify({
  object: 'chat.completion.chunk',
  model: 'gemini',
  choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }],
})}\n\ndata: [DONE]\n\n`;

/** Decodes `text` fed in pieces of `size` characters (events split anywhere). */
function decodeSplit(text: string, size: number) {
  const decoder = new ChatStreamDecoder();
  for (let at = 0; at < text.length; at += size) decoder.feed(text.slice(at, at + size));
  decoder.end();
  const events: ChatStreamEvent[] = [];
  for (let event = decoder.take(); event !== undefined; event = decoder.take()) events.push(event);
  return { events, result: decoder.result() };
}

describe("a tool call's extra_content in a stream", () => {
  const stream =
    sseChunk([
      {
        index: 0,
        id: 'c1',
        type: 'function',
        function: { name: 'weather', arguments: '' },
        extra_content: signed('sig-A'),
      },
    ]) +
    sseChunk([{ index: 0, function: { arguments: '{"city":' } }]) +
    // A repeat on a later piece is not a second one (first wins, reported once).
    sseChunk([{ index: 0, function: { arguments: '"Paris"}' }, extra_content: signed('late') }]) +
    sseChunk([{ index: 1, id: 'c2', function: { name: 'time', arguments: '{}' } }]) +
    sseChunk([{ index: 1, function: { arguments: '' }, extra_content: 'not an object' }]) +
    sseChunk([{ index: 2, id: 'c3', function: { name: 'date', arguments: '' } }]) +
    sseChunk([{ index: 2, function: { arguments: '{}' }, extra_content: signed('sig-C') }]) +
    FINISH;

  it.each([1, 7, 64, stream.length])(
    'is read from the piece that carries it, once per call (fed %i characters at a time)',
    (size) => {
      const { events, result } = decodeSplit(stream, size);
      const extras = events.flatMap((event) =>
        event.type === 'tool-call-delta' && event.extraContent !== undefined
          ? [[event.call, event.id, event.extraContent]]
          : [],
      );
      // The id too, when it came on a later piece than the call's first.
      expect(extras).toEqual([
        [0, 'c1', signed('sig-A')],
        [2, 'c3', signed('sig-C')],
      ]);
      expect(result.toolCalls).toEqual([
        { id: 'c1', name: 'weather', arguments: '{"city":"Paris"}', extraContent: signed('sig-A') },
        { id: 'c2', name: 'time', arguments: '{}' },
        { id: 'c3', name: 'date', arguments: '{}', extraContent: signed('sig-C') },
      ]);
    },
  );

  it('a stream without it gives events and calls without the field', () => {
    const { events, result } = decodeSplit(
      sseChunk([{ index: 0, id: 'c1', function: { name: 'f', arguments: '{}' } }]) + FINISH,
      5,
    );
    expect(events.some((event) => 'extraContent' in event)).toBe(false);
    expect(result.toolCalls[0]).not.toHaveProperty('extraContent');
  });
});

describe('sent back on the assistant message', () => {
  it('toolCallOf replays an object as extra_content, and leaves out anything else', () => {
    expect(toolCallOf('c1', 'weather', '{}', signed('sig-A'))).toEqual({
      id: 'c1',
      type: 'function',
      function: { name: 'weather', arguments: '{}' },
      extra_content: signed('sig-A'),
    });
    expect(toolCallOf('c1', 'weather', '{}', 'sig-A')).not.toHaveProperty('extra_content');
    expect(toolCallOf('c1', 'weather', '{}')).not.toHaveProperty('extra_content');
    expect(thoughtSignatureContent('sig-A')).toEqual(signed('sig-A'));
  });
});
