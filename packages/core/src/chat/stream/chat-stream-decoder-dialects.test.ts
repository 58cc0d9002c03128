import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../errors/errors';
import type { ChatStreamEvent } from '../../protocol/chat-result-types';
import type { ChatCompletionResponse } from '../../protocol/wire-types';
import { readChatCompletion } from '../read-chat-completion';
import { chatCompletionProblem } from '../validate-chat-response';
import { ChatStreamDecoder } from './chat-stream-decoder';

const sse = (...chunks: unknown[]) =>
  `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const chunk = (delta: unknown, extra: Record<string, unknown> = {}) => ({
  id: 'r1',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: null }],
  ...extra,
});
const finish = (reason: string, extra: Record<string, unknown> = {}) => ({
  id: 'r1',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'm',
  choices: [{ index: 0, delta: {}, finish_reason: reason }],
  ...extra,
});

function decode(text: string) {
  const decoder = new ChatStreamDecoder();
  const events: ChatStreamEvent[] = [];
  decoder.feed(text);
  decoder.end();
  for (let e = decoder.take(); e !== undefined; e = decoder.take()) events.push(e);
  return { events, result: decoder.result() };
}

describe('ChatStreamDecoder dialects', () => {
  it('reads delta.reasoning_content (DeepSeek, Qwen) as reasoning before the text', () => {
    const { events, result } = decode(
      sse(
        chunk({ role: 'assistant', content: null, reasoning_content: 'Think ' }),
        chunk({ reasoning_content: 'hard.' }),
        chunk({ content: 'Answer', reasoning_content: null }),
        finish('stop'),
      ),
    );
    expect(result.reasoning).toBe('Think hard.');
    expect(result.text).toBe('Answer');
    expect(events.filter((e) => e.type === 'reasoning-delta').map((e) => e.delta)).toEqual([
      'Think ',
      'hard.',
    ]);
  });

  it('reads delta.reasoning as a string (Groq) and ignores x_groq, logprobs, system_fingerprint', () => {
    const { result } = decode(
      sse(
        chunk({ role: 'assistant', reasoning: 'Hmm.' }, { x_groq: { id: 'req_1' } }),
        chunk({ content: 'Yes' }, { system_fingerprint: 'fp', logprobs: null }),
        finish('stop', { x_groq: { usage: { prompt_tokens: 1 } } }),
      ),
    );
    expect(result).toMatchObject({ reasoning: 'Hmm.', text: 'Yes', finishReason: 'stop' });
  });

  it('reads content arrays: text parts joined, thinking parts (Mistral) to reasoning, unknown parts ignored', () => {
    const { result } = decode(
      sse(
        chunk({
          role: 'assistant',
          content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Plan.' }] }],
        }),
        chunk({ content: [{ type: 'reasoning', text: ' More.' }, { type: 'image_url' }] }),
        chunk({
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'text', text: '!' },
          ],
        }),
        finish('stop'),
      ),
    );
    expect(result).toMatchObject({ reasoning: 'Plan. More.', text: 'Hi!' });
  });

  it('starts the next tool call at an index-less piece with id and name; continues index-less pieces', () => {
    const { result, events } = decode(
      sse(
        chunk({
          tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":' } }],
        }),
        chunk({ tool_calls: [{ function: { arguments: '1}' } }] }),
        chunk({
          tool_calls: [{ id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } }],
        }),
        finish('tool_calls'),
      ),
    );
    expect(result.toolCalls).toEqual([
      { id: 'a', name: 'f', arguments: '{"x":1}' },
      { id: 'b', name: 'g', arguments: '{}' },
    ]);
    expect(
      events.flatMap((e) => (e.type === 'tool-call-delta' ? [[e.index, e.call]] : [])),
    ).toEqual([
      [0, 0],
      [0, 0],
      [1, 1],
    ]);
  });

  it('continues a call at its index when a later piece brings another id but no name (Poolside)', () => {
    const { result } = decode(
      sse(
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_first',
              type: 'function',
              function: { name: 'f', arguments: '' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, id: 'call_other', function: { arguments: '{"x":' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'call_other', function: { arguments: '1}' } }] }),
        finish('tool_calls'),
      ),
    );
    expect(result.toolCalls).toEqual([{ id: 'call_first', name: 'f', arguments: '{"x":1}' }]);
  });

  it('reads `error: null` beside an answer (Foundry Local, on every chunk) as no error', () => {
    const { result } = decode(
      sse(
        chunk({ content: 'Hel' }, { error: null }),
        chunk({ content: 'lo' }, { error: null }),
        finish('stop', { error: null }),
      ),
    );
    expect(result.text).toBe('Hello');
    expect(result.finishReason).toBe('stop');
  });

  it('reads tool-call arguments sent as JSON (an object: llama.cpp#20198) as that JSON text; null adds nothing', () => {
    const piece = (args: unknown, id?: string) =>
      chunk({ tool_calls: [{ index: 0, id, function: { name: 'w', arguments: args } }] });
    const { result, events } = decode(
      sse(
        chunk({ role: 'assistant', content: 'Let me check.' }),
        piece({ city: 'Kyiv' }, 'c1'),
        piece(null),
        chunk({ tool_calls: [{ index: 1, id: 'c2', function: { name: 'v', arguments: 42 } }] }),
        finish('tool_calls'),
      ),
    );
    expect(result).toMatchObject({
      text: 'Let me check.',
      toolCalls: [
        { id: 'c1', name: 'w', arguments: '{"city":"Kyiv"}' },
        // Not an object: kept for the adapters to give as an invalid call, the text not lost.
        { id: 'c2', name: 'v', arguments: '42' },
      ],
    });
    expect(events.flatMap((e) => (e.type === 'tool-call-delta' ? [e.argumentsDelta] : []))).toEqual(
      ['{"city":"Kyiv"}', '', '42'],
    );
  });

  it('reads delta.refusal as text and reports a refused stop as content_filter, the sent stop kept (OpenAI)', () => {
    const { result, events } = decode(
      sse(
        chunk({ role: 'assistant', content: null, refusal: '' }),
        chunk({ refusal: 'I cannot ' }),
        chunk({ refusal: 'help' }),
        finish('stop'),
      ),
    );
    expect(result).toMatchObject({
      text: 'I cannot help',
      refusal: 'I cannot help',
      finishReason: 'content_filter',
      sentFinishReason: 'stop',
    });
    expect(events.filter((e) => e.type === 'text-delta' || e.type === 'finish')).toEqual([
      { type: 'text-delta', delta: 'I cannot ', choiceIndex: 0 },
      { type: 'text-delta', delta: 'help', choiceIndex: 0 },
      { type: 'finish', reason: 'content_filter', choiceIndex: 0, sent: 'stop' },
    ]);
  });

  it('a refusal in the finish chunk still marks the finish; length is kept; no refusal, no change', () => {
    const inFinish = decode(
      sse({
        ...finish('stop'),
        choices: [{ index: 0, delta: { refusal: 'No' }, finish_reason: 'stop' }],
      }),
    );
    expect(inFinish.result).toMatchObject({ text: 'No', finishReason: 'content_filter' });
    const cut = decode(sse(chunk({ refusal: 'No, bec' }), finish('length')));
    expect(cut.result.finishReason).toBe('length');
    expect(cut.result).not.toHaveProperty('sentFinishReason');
    // A reason kept as sent carries no `sent`.
    expect(cut.events.find((e) => e.type === 'finish')).not.toHaveProperty('sent');
    const plain = decode(sse(chunk({ content: 'Hi', refusal: null }), finish('stop')));
    expect(plain.result).toEqual(expect.objectContaining({ text: 'Hi', finishReason: 'stop' }));
    expect(plain.result.refusal).toBeUndefined();
    // Events only (no text kept): the finish still says the model declined.
    const decoder = new ChatStreamDecoder({ assemble: false });
    decoder.feed(sse(chunk({ refusal: 'No' }), finish('stop')));
    decoder.end();
    expect(decoder.result()).toMatchObject({ text: '', finishReason: 'content_filter' });
  });

  it('takes id/model/created from the first non-empty chunk (content-filter chunk first, no role chunk)', () => {
    const { result, events } = decode(
      sse(
        { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{}] },
        chunk({ content: 'Hi' }),
        {
          ...finish('stop'),
          usage: {
            prompt_tokens: 3,
            completion_tokens: 9,
            total_tokens: 12,
            completion_tokens_details: { reasoning_tokens: 5 },
            prompt_tokens_details: { cached_tokens: 2 },
          },
        },
      ),
    );
    expect(result).toMatchObject({ id: 'r1', model: 'm', created: 1_700_000_000, text: 'Hi' });
    expect(result.usage?.completion_tokens_details).toEqual({ reasoning_tokens: 5 });
    expect(events[0]).toEqual({ type: 'metadata', id: 'r1', model: 'm', created: 1_700_000_000 });
    expect(events.some((e) => e.type === 'role')).toBe(false);
  });

  it('refuses a stream that answers only on another choice than 0 (provider_protocol_error)', () => {
    const decoder = new ChatStreamDecoder();
    let code: string | undefined;
    try {
      decoder.feed(
        sse({
          id: 'x',
          model: 'm',
          choices: [{ index: 1, delta: { content: 'a' }, finish_reason: 'stop' }],
        }),
      );
      decoder.end();
    } catch (error) {
      code = isGatewayError(error) ? error.code : 'other';
    }
    expect(code).toBe('provider_protocol_error');
  });
});

describe('readChatCompletion / chatCompletionProblem dialects', () => {
  const completion = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    ({
      id: 'r2',
      object: 'chat.completion',
      created: 1_700_000_001,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
      ...extra,
    }) as unknown as ChatCompletionResponse;

  it("keeps a finish_reason as sent, and null as null (no reason of ours in the server's place)", () => {
    const finishing = (reason: unknown, message: Record<string, unknown> = { content: 'A' }) => {
      const answer = completion(message);
      (answer.choices[0] as { finish_reason: unknown }).finish_reason = reason;
      return readChatCompletion(answer)?.finishReason;
    };
    expect(finishing(null)).toBeNull();
    expect(finishing(undefined)).toBeNull();
    expect(finishing('unknown')).toBe('unknown');
    expect(finishing(null, { content: null, refusal: 'No.' })).toBeNull();
  });

  it('reads reasoning_content, reasoning and thinking parts, and content arrays', () => {
    expect(readChatCompletion(completion({ content: 'A', reasoning_content: 'R' }))).toMatchObject({
      text: 'A',
      reasoning: 'R',
      id: 'r2',
      created: 1_700_000_001,
    });
    expect(readChatCompletion(completion({ content: 'A', reasoning: 'G' }))?.reasoning).toBe('G');
    const parts = completion({
      content: [
        { type: 'thinking', thinking: [{ type: 'text', text: 'T' }] },
        { type: 'text', text: 'B' },
        { type: 'reference', ids: [1] },
      ],
    });
    expect(chatCompletionProblem(parts)).toBeUndefined();
    expect(readChatCompletion(parts)).toMatchObject({ text: 'B', reasoning: 'T' });
  });

  it('reads tool-call arguments sent as JSON (an object: llama.cpp#20198) as that JSON text, the check only checking', () => {
    const call = (args: unknown) => ({
      id: 'c1',
      type: 'function',
      function: { name: 'w', arguments: args },
    });
    const sent = completion({ content: 'Let me check.', tool_calls: [call({ city: 'Kyiv' })] });
    expect(chatCompletionProblem(sent)).toBeUndefined();
    // The check leaves the body as sent; reading it gives the text, also in the body handed back.
    expect(sent.choices[0]?.message.tool_calls?.[0]?.function.arguments).toEqual({ city: 'Kyiv' });
    expect(readChatCompletion(sent)?.toolCalls).toMatchObject([
      { id: 'c1', name: 'w', arguments: '{"city":"Kyiv"}' },
    ]);
    expect(sent.choices[0]?.message.tool_calls?.[0]?.function.arguments).toBe('{"city":"Kyiv"}');
    const number = readChatCompletion(completion({ tool_calls: [call(42)] }));
    expect(number?.toolCalls[0]?.arguments).toBe('42');
    expect(chatCompletionProblem(completion({ tool_calls: [call(null)] }))).toMatch(
      /arguments given/,
    );
  });

  it('reads message.refusal as text and reports a refused stop as content_filter (OpenAI)', () => {
    expect(
      readChatCompletion(completion({ content: null, refusal: 'I cannot help' })),
    ).toMatchObject({
      text: 'I cannot help',
      refusal: 'I cannot help',
      finishReason: 'content_filter',
      sentFinishReason: 'stop',
    });
    const both = readChatCompletion(completion({ content: 'Partly. ', refusal: 'No more.' }));
    expect(both).toMatchObject({ text: 'Partly. No more.', finishReason: 'content_filter' });
    const plain = readChatCompletion(completion({ content: 'Hi', refusal: null }));
    expect(plain).toMatchObject({ text: 'Hi', finishReason: 'stop' });
    expect(plain).not.toHaveProperty('sentFinishReason');
    expect(plain?.refusal).toBeUndefined();
  });

  it('made-up tool-call ids differ from one answer to the next', () => {
    const answer = () =>
      readChatCompletion(
        completion({
          content: null,
          tool_calls: [
            { id: '', type: 'function', function: { name: 'f', arguments: '{}' } },
            { type: 'function', function: { name: 'g', arguments: '{}' } },
          ],
        }),
      )?.toolCalls.map((call) => call.id) ?? [];
    const [first, second] = [answer(), answer()];
    expect(first).toEqual([
      expect.stringMatching(/^call_0_0_[0-9a-f]{12}$/),
      expect.stringMatching(/^call_1_1_[0-9a-f]{12}$/),
    ]);
    expect(new Set([...first, ...second]).size).toBe(4);
  });

  it('a whole answer whose calls share one id: the later calls get ids of their own, extra_content kept per call', () => {
    const signature = (s: string) => ({ google: { thought_signature: s } });
    const call = (city: string, extra?: unknown) => ({
      id: 'call_00_same',
      type: 'function',
      function: { name: 'weather', arguments: `{"city":"${city}"}` },
      ...(extra !== undefined && { extra_content: extra }),
    });
    const calls =
      readChatCompletion(
        completion({
          content: null,
          tool_calls: [call('Kyiv', signature('k')), call('Rome', signature('r')), call('Oslo')],
        }),
      )?.toolCalls ?? [];
    expect(calls).toEqual([
      {
        id: 'call_00_same',
        name: 'weather',
        arguments: '{"city":"Kyiv"}',
        extraContent: signature('k'),
      },
      {
        id: expect.stringMatching(/^call_00_same_1_[0-9a-f]{12}$/),
        name: 'weather',
        arguments: '{"city":"Rome"}',
        extraContent: signature('r'),
      },
      {
        id: expect.stringMatching(/^call_00_same_2_[0-9a-f]{12}$/),
        name: 'weather',
        arguments: '{"city":"Oslo"}',
      },
    ]);
  });

  it('reads tool-call arguments sent as JSON (an object, an array, a number) as that JSON text, in the answer too', () => {
    const call = (id: string, args: unknown) => ({
      id,
      type: 'function',
      function: { name: 'w', arguments: args },
    });
    const answer = completion({
      content: 'Let me check.',
      tool_calls: [call('a', { city: 'Kyiv' }), call('b', [1, 2]), call('c', 42)],
    });
    expect(chatCompletionProblem(answer)).toBeUndefined();
    expect(readChatCompletion(answer)).toMatchObject({
      text: 'Let me check.',
      toolCalls: [
        { id: 'a', arguments: '{"city":"Kyiv"}' },
        { id: 'b', arguments: '[1,2]' },
        { id: 'c', arguments: '42' },
      ],
    });
    // The answer handed back keeps what its type promises: strings.
    expect(answer.choices[0]?.message.tool_calls?.map((c) => c.function.arguments)).toEqual([
      '{"city":"Kyiv"}',
      '[1,2]',
      '42',
    ]);
    // Without arguments, a whole call is still no call.
    expect(chatCompletionProblem(completion({ tool_calls: [call('d', null)] }))).toMatch(
      /tool_calls\[0\]/,
    );
  });

  it('refuses an empty choices array and unreadable content', () => {
    expect(chatCompletionProblem({ choices: [] })).toMatch(/empty `choices`/);
    expect(chatCompletionProblem(completion({ content: 5 }))).toMatch(/content/);
  });

  it('reads finish_reason "" (SGLang, older Ollama) as no reason yet: without a real one the stream is incomplete', () => {
    const pending = (content: string) => ({
      ...chunk({ content }),
      choices: [{ index: 0, delta: { content }, finish_reason: '' }],
    });
    const whole = decode(sse(pending('Hel'), pending('lo'), finish('stop')));
    expect(whole.result).toMatchObject({ text: 'Hello', finishReason: 'stop' });
    expect(whole.events.filter((e) => e.type === 'finish')).toHaveLength(1);
    let error: unknown;
    try {
      decode(sse(pending('Hel'), pending('lo')));
    } catch (caught) {
      error = caught;
    }
    expect(isGatewayError(error) && error.code).toBe('stream_incomplete');
  });

  it("reads a model server's mid-stream error event (code null, a number, or none) by its message", () => {
    const failureOf = (error: Record<string, unknown>) => {
      try {
        decode(
          `data: ${JSON.stringify(chunk({ content: 'Hi' }))}\n\ndata: ${JSON.stringify({ error })}\n\n`,
        );
      } catch (caught) {
        return caught;
      }
      return undefined;
    };
    for (const [error, code] of [
      [
        { message: 'Rate limit reached mid-stream', type: 'requests', code: null },
        'upstream_error',
      ],
      [{ message: 'Rate limit reached mid-stream', code: 500 }, 'upstream_error'],
      // (A number that is a gateway status a retry may help is read as its code; a 400 is the
      // model server's own failure.)
      [{ message: 'Rate limit reached mid-stream', code: 400 }, 'upstream_error'],
      [{ message: 'Rate limit reached mid-stream', code: 429 }, 'model_busy'],
      [{ message: 'Rate limit reached mid-stream' }, 'upstream_error'],
    ] as const) {
      expect(failureOf(error)).toMatchObject({ code, message: 'Rate limit reached mid-stream' });
    }
    expect(failureOf({ detail: 'no message' })).toMatchObject({ code: 'provider_protocol_error' });
  });
});
