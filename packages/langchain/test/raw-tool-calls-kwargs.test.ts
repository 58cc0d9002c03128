// docs/gateway-protocol.md §4.4: an answer's tool calls also in OpenAI's raw form
// (`additional_kwargs.tool_calls`), and a legacy `function_call` (OpenAI's `functions` API) in
// `additional_kwargs.function_call`, as ChatOpenAI keeps them: an answer made only of a
// `function_call` is not lost. Core reads them; the adapter maps.
import { chatSse, emulate, type StreamChunk } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting, joinedStream } from './helpers';

const MODEL = 'community/general';

/** What `stream()` gives, joined with concat, when the gateway streams `chunks`. */
async function streamedFrom(chunks: readonly StreamChunk[]): Promise<AIMessageChunk> {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) =>
    request.url.endsWith('/chat/completions')
      ? new Response(chatSse(MODEL, chunks), {
          headers: { 'content-type': 'text/event-stream', 'x-service-model': MODEL },
        })
      : undefined,
  );
  return joinedStream(new GatewayChatModel(MODEL, connection).stream('hi'));
}

async function answering(message: object, finish: string) {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) =>
    request.url.endsWith('/chat/completions')
      ? Response.json(
          {
            id: 'c1',
            object: 'chat.completion',
            model: MODEL,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: null, ...message },
                finish_reason: finish,
              },
            ],
            usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
          },
          { headers: { 'x-service-model': MODEL } },
        )
      : undefined,
  );
  return new GatewayChatModel(MODEL, connection);
}

describe('tool calls in their raw form, and a legacy function_call', () => {
  it('invoke(): the raw tool calls beside the parsed ones', async () => {
    const raw = { id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } };
    const model = await answering({ tool_calls: [raw] }, 'tool_calls');
    const message = await model.invoke('hi');
    expect(message.tool_calls).toEqual([
      { type: 'tool_call', id: 'c1', name: 'f', args: { a: 1 } },
    ]);
    expect(message.additional_kwargs.tool_calls).toEqual([raw]);
  });

  it('invoke(): a function_call answer keeps its call (arguments as JSON text), not a tool call', async () => {
    const model = await answering(
      { function_call: { name: 'f', arguments: { a: 1 } } },
      'function_call',
    );
    const message = await model.invoke('hi');
    expect(message.additional_kwargs.function_call).toEqual({ name: 'f', arguments: '{"a":1}' });
    expect(message.tool_calls).toEqual([]);
    expect(message.response_metadata.finish_reason).toBe('function_call');
  });

  it("stream(): each chunk's raw piece, joined on concat into the whole call", async () => {
    const piece = (id: string | undefined, name: string | undefined, args: string) => ({
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: 0,
                ...(id && { id, type: 'function' }),
                function: { ...(name && { name }), arguments: args },
              },
            ],
          },
        },
      ],
    });
    const whole = await streamedFrom([
      piece('c1', 'f', '{"a":'),
      piece(undefined, undefined, '1}'),
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ]);
    expect(whole.tool_calls).toEqual([{ type: 'tool_call', id: 'c1', name: 'f', args: { a: 1 } }]);
    expect(whole.additional_kwargs.tool_calls).toEqual([
      { index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
    ]);
  });

  it("stream(): a function_call's pieces, joined on concat into the whole call", async () => {
    const piece = (fn: object, finish: string | null = null) => ({
      choices: [{ index: 0, delta: { function_call: fn }, finish_reason: finish }],
    });
    const whole = await streamedFrom([
      piece({ name: 'f', arguments: '{"a":' }),
      piece({ arguments: '1}' }),
      { choices: [{ index: 0, delta: {}, finish_reason: 'function_call' }] },
    ]);
    expect(whole.additional_kwargs.function_call).toEqual({ name: 'f', arguments: '{"a":1}' });
    expect(whole.tool_calls).toEqual([]);
    expect(whole.response_metadata.finish_reason).toBe('function_call');
  });
});
