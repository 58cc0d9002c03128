import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

/** SSE of an answer with text and a tool call, as some model servers send it. */
function mixedStream(args = '{"city":"Kyiv"}'): Response {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-mixed',
      object: 'chat.completion.chunk',
      model: 'community/general',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  const body = [
    chunk({ role: 'assistant' }),
    chunk({ content: 'Let me check. ' }),
    chunk({
      tool_calls: [
        { index: 0, id: 'call_1', type: 'function', function: { name: 'weather', arguments: '' } },
      ],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }),
    chunk({}, 'tool_calls'),
    `data: ${JSON.stringify({
      object: 'chat.completion.chunk',
      model: 'community/general',
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
    })}\n\n`,
    'data: [DONE]\n\n',
  ].join('');
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream', 'x-service-model': 'community/general' },
  });
}

describe('text and tool calls in one streamed answer', () => {
  it('keeps both apart in stream() and in streamEvents()', async () => {
    const connection = intercepting(await emulate(), async (request) =>
      request.url.endsWith('/chat/completions') ? mixedStream() : undefined,
    );
    const model = new GatewayChatModel('community/general', connection);

    const chunks = [];
    for await (const chunk of await model.stream('weather?')) chunks.push(chunk);
    const merged = chunks.reduce((a, b) => a.concat(b));
    expect(merged.content).toBe('Let me check. ');
    expect(merged.tool_calls).toEqual([
      { type: 'tool_call', id: 'call_1', name: 'weather', args: { city: 'Kyiv' } },
    ]);

    const message = await model.streamEvents('weather?');
    expect(message.text).toBe('Let me check. ');
    expect(message.tool_calls).toEqual([
      expect.objectContaining({ id: 'call_1', name: 'weather', args: { city: 'Kyiv' } }),
    ]);
    expect(message.response_metadata.finish_reason).toBe('tool_use');
    expect(message.usage_metadata?.total_tokens).toBe(11);
  });

  it.each([
    ['{"city":"Kyiv"', 'tool call arguments are not valid JSON: '],
    ['["Kyiv"]', 'tool call arguments are JSON but not an object'],
  ])('names bad arguments (%s) in streamEvents() as invoke() does', async (args, error) => {
    const connection = intercepting(await emulate(), async (request) =>
      request.url.endsWith('/chat/completions') ? mixedStream(args) : undefined,
    );
    const model = new GatewayChatModel('community/general', connection);

    const message = await model.streamEvents('weather?');
    expect(message.tool_calls).toEqual([]);
    const block = (message.content as { type: string; error?: string }[]).find(
      (part) => part.type === 'invalid_tool_call',
    );
    expect(block).toEqual(expect.objectContaining({ id: 'call_1', name: 'weather', args }));
    expect(block?.error?.startsWith(error)).toBe(true);
  });
});
