import { chatChunkJson, twoChoicesAnswer } from '@infergate/emulator/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../errors/errors';
import type { AssembledChat, ChatStreamEvent } from '../../protocol/chat-result-types';
import { ChatStreamDecoder } from './chat-stream-decoder';

const chunk = (choices: object[], extra: Record<string, unknown> = {}) =>
  chatChunkJson('pool-a/m', { choices, ...extra });

const sse = (...data: string[]) => data.map((d) => `data: ${d}\n\n`).join('');

const FULL_STREAM = sse(
  chunk([{ index: 0, delta: { role: 'assistant' } }]),
  chunk([{ index: 0, delta: { content: 'Hello ' } }]),
  chunk([{ index: 0, delta: { content: 'world' } }]),
  chunk([
    {
      index: 0,
      delta: {
        tool_calls: [
          {
            index: 0,
            id: 'call_a',
            type: 'function',
            function: { name: 'get_weather', arguments: '' },
          },
        ],
      },
    },
  ]),
  chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] } }]),
  chunk([
    {
      index: 0,
      delta: {
        tool_calls: [
          { index: 1, id: 'call_b', type: 'function', function: { name: 'noop', arguments: '' } },
        ],
      },
    },
  ]),
  chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Kyiv"}' } }] } }]),
  chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
  chunk([], { usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } }),
  '[DONE]',
);

const EXPECTED: AssembledChat = {
  id: 'c1',
  model: 'pool-a/m',
  text: 'Hello world',
  toolCalls: [
    { id: 'call_a', name: 'get_weather', arguments: '{"city":"Kyiv"}' },
    { id: 'call_b', name: 'noop', arguments: '{}' },
  ],
  finishReason: 'tool_calls',
  usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
};

function decodeAll(pieces: readonly string[]): {
  events: ChatStreamEvent[];
  result: AssembledChat;
} {
  const decoder = new ChatStreamDecoder();
  const events: ChatStreamEvent[] = [];
  for (const piece of pieces) {
    decoder.feed(piece);
    for (let e = decoder.take(); e !== undefined; e = decoder.take()) events.push(e);
  }
  decoder.end();
  for (let e = decoder.take(); e !== undefined; e = decoder.take()) events.push(e);
  return { events, result: decoder.result() };
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return error.code;
    throw error;
  }
  return 'none';
}

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return error.message;
    throw error;
  }
  return 'none';
}

describe('ChatStreamDecoder', () => {
  it('decodes role, text, tool-call pieces, finish and a usage-only chunk', () => {
    const { events, result } = decodeAll([FULL_STREAM]);
    expect(result).toEqual(EXPECTED);
    expect(events.map((e) => e.type)).toEqual([
      'metadata',
      'role',
      'text-delta',
      'text-delta',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-delta',
      'finish',
      'usage',
    ]);
    expect(events[0]).toEqual({ type: 'metadata', id: 'c1', model: 'pool-a/m' });
    expect(events[1]).toEqual({ type: 'role', role: 'assistant', id: 'c1', model: 'pool-a/m' });
    expect(events[4]).toEqual({
      type: 'tool-call-delta',
      index: 0,
      call: 0,
      id: 'call_a',
      name: 'get_weather',
      argumentsDelta: '',
    });
  });

  it("reads choice 0's tool calls only: another choice's pieces never join them (n > 1)", async () => {
    const stream = await twoChoicesAnswer('m/x', true).text();
    const decoder = new ChatStreamDecoder();
    decoder.feed(stream);
    decoder.end();
    const events = decoder.takeAll() ?? [];
    expect(decoder.result().toolCalls).toEqual([
      { id: 'call_a', name: 'weather', arguments: '{"city":"Kyiv"}' },
    ]);
    const pieces = events.filter((e) => e.type === 'tool-call-delta');
    expect(pieces.map((e) => [e.call, e.id, e.argumentsDelta])).toEqual([
      [0, 'call_a', '{"city":"Ky'],
      [0, undefined, 'iv"}'],
    ]);
    // (Choice 1's pieces are the server's progress all the same, as its text is.)
    expect(decoder.answered).toBe(2 + 3 + 2);
  });

  it('starts a new tool call when a piece at a used index carries another id', () => {
    const { result, events } = decodeAll([
      sse(
        chunk([
          {
            index: 0,
            delta: {
              tool_calls: [{ index: 0, id: 'a', function: { name: 'x', arguments: '{"n":1}' } }],
            },
          },
        ]),
        chunk([
          {
            index: 0,
            delta: {
              tool_calls: [{ index: 0, id: 'b', function: { name: 'y', arguments: '{"n":' } }],
            },
          },
        ]),
        chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '2}' } }] } }]),
        chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
        '[DONE]',
      ),
    ]);
    expect(result.toolCalls).toEqual([
      { id: 'a', name: 'x', arguments: '{"n":1}' },
      { id: 'b', name: 'y', arguments: '{"n":2}' },
    ]);
    // The events say which call each piece belongs to, so adapters join them the same way.
    expect(
      events.flatMap((e) => (e.type === 'tool-call-delta' ? [[e.index, e.call, e.id]] : [])),
    ).toEqual([
      [0, 0, 'a'],
      [0, 1, 'b'],
      [0, 1, undefined],
    ]);
  });

  describe('tool-call quirks of model servers', () => {
    const piece = (call: Record<string, unknown>) =>
      chunk([{ index: 0, delta: { tool_calls: [call] } }]);
    const decodeCalls = (...pieces: Record<string, unknown>[]) =>
      decodeAll([
        sse(
          ...pieces.map(piece),
          chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
          '[DONE]',
        ),
      ]);
    const callEvents = (events: ChatStreamEvent[]) =>
      events.flatMap((e) => (e.type === 'tool-call-delta' ? [[e.call, e.id, e.name]] : []));

    it('an empty id on later pieces is no new call (DashScope)', () => {
      const { result, events } = decodeCalls(
        { index: 0, id: 'call_q', type: 'function', function: { name: 'f', arguments: '' } },
        { index: 0, id: '', type: 'function', function: { arguments: '{"a":' } },
        { index: 0, id: '', type: 'function', function: { arguments: '1}' } },
      );
      expect(result.toolCalls).toEqual([{ id: 'call_q', name: 'f', arguments: '{"a":1}' }]);
      expect(callEvents(events)).toEqual([
        [0, 'call_q', 'f'],
        [0, undefined, undefined],
        [0, undefined, undefined],
      ]);
    });

    it('a call without any id gets call_<index>_<order>_<tag> on its first event, as in the answer', () => {
      const { result, events } = decodeCalls(
        { index: 0, id: '', function: { name: 'f', arguments: '{"a":' } },
        { index: 0, id: '', function: { arguments: '1}' } },
        { index: 1, function: { name: 'g', arguments: '{}' } },
      );
      const ids = result.toolCalls.map((call) => call.id);
      expect(ids).toEqual([
        expect.stringMatching(/^call_0_0_[0-9a-f]{12}$/),
        expect.stringMatching(/^call_1_1_[0-9a-f]{12}$/),
      ]);
      expect(callEvents(events)).toEqual([
        [0, ids[0], 'f'],
        [0, undefined, undefined],
        [1, ids[1], 'g'],
      ]);
    });

    it('made-up ids differ from one answer to the next (the steps of a tool loop)', () => {
      const step = () =>
        decodeCalls({ index: 0, id: '', function: { name: 'f', arguments: '{}' } }).result
          .toolCalls[0]?.id;
      const ids = new Set([step(), step(), step()]);
      expect(ids.size).toBe(3);
    });

    it("takes the server's id when the server names the call later (ChatOpenAI keeps it)", () => {
      const { result, events } = decodeCalls(
        { index: 0, function: { name: 'f', arguments: '{"a":' } },
        { index: 0, id: 'late', function: { arguments: '1}' } },
      );
      expect(result.toolCalls).toEqual([{ id: 'late', name: 'f', arguments: '{"a":1}' }]);
      expect(callEvents(events)).toEqual([
        [0, expect.stringMatching(/^call_0_0_[0-9a-f]{12}$/), 'f'],
        [0, 'late', undefined],
      ]);
    });

    const calls = (result: AssembledChat) =>
      result.toolCalls.map((call) => [call.name, call.arguments]);

    it('whole calls without index or id, one per chunk: another name starts the next call', () => {
      const rome = '{"city":"Rome"}';
      for (const id of [undefined, '']) {
        const { result, events } = decodeCalls(
          { id, type: 'function', function: { name: 'get_weather', arguments: rome } },
          { id, type: 'function', function: { name: 'get_time', arguments: '{}' } },
        );
        expect(calls(result)).toEqual([
          ['get_weather', rome],
          ['get_time', '{}'],
        ]);
        expect(new Set(result.toolCalls.map((call) => call.id)).size).toBe(2);
        expect(events.flatMap((e) => (e.type === 'tool-call-delta' ? [e.call] : []))).toEqual([
          0, 1,
        ]);
      }
    });

    it('whole calls without index or id in one tool_calls array are two calls', () => {
      const { result } = decodeAll([
        sse(
          chunk([
            {
              index: 0,
              delta: {
                tool_calls: [
                  { type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
                  { type: 'function', function: { name: 'g', arguments: '{}' } },
                ],
              },
            },
          ]),
          chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
          '[DONE]',
        ),
      ]);
      expect(calls(result)).toEqual([
        ['f', '{"a":1}'],
        ['g', '{}'],
      ]);
    });

    it('the same name without index or id: a new call once the arguments so far are whole JSON', () => {
      const { result } = decodeCalls(
        { function: { name: 'f', arguments: '{"city":' } },
        { function: { name: 'f', arguments: '"Rome"}' } },
        { function: { name: 'f', arguments: '{"city":"Paris"}' } },
        { function: { arguments: ' ' } },
      );
      expect(calls(result)).toEqual([
        ['f', '{"city":"Rome"}'],
        ['f', '{"city":"Paris"} '],
      ]);
    });

    it('an index repeated with another name starts a new call; with the same name it continues', () => {
      const { result, events } = decodeCalls(
        { index: 0, type: 'function', function: { name: 'f', arguments: '{"a":' } },
        { index: 0, function: { name: 'f', arguments: '1}' } },
        { index: 0, type: 'function', function: { name: 'g', arguments: '{}' } },
      );
      expect(calls(result)).toEqual([
        ['f', '{"a":1}'],
        ['g', '{}'],
      ]);
      expect(events.flatMap((e) => (e.type === 'tool-call-delta' ? [e.call] : []))).toEqual([
        0, 0, 1,
      ]);
    });

    it('a name and id repeated whole on every piece are one call, its name once (llama.cpp)', () => {
      const { result, events } = decodeCalls(
        { index: 0, id: 'call_r', type: 'function', function: { name: 'f', arguments: '{"a":' } },
        { index: 0, id: 'call_r', type: 'function', function: { name: 'f', arguments: '1}' } },
      );
      expect(result.toolCalls).toEqual([{ id: 'call_r', name: 'f', arguments: '{"a":1}' }]);
      expect(callEvents(events)).toEqual([
        [0, 'call_r', 'f'],
        [0, 'call_r', 'f'],
      ]);
    });

    const kyiv = '{"city":"Kyiv"}';
    const rome = '{"city":"Rome"}';
    const tagged = (base: string, order: number) =>
      expect.stringMatching(new RegExp(`^${base}_${order}_[0-9a-f]{12}$`));

    it('parallel calls given one id keep it once: a later call gets <id>_<n>_<tag> (DeepSeek, GLM, OpenRouter)', () => {
      const signature = (s: string) => ({ google: { thought_signature: s } });
      const { result, events } = decodeCalls(
        { index: 0, id: 'same', function: { name: 'weather', arguments: '{"city":' } },
        { index: 1, id: 'same', function: { name: 'weather', arguments: rome } },
        { index: 1, id: 'same', extra_content: signature('s1'), function: { arguments: ' ' } },
        {
          index: 0,
          id: 'same',
          extra_content: signature('s0'),
          function: { arguments: '"Kyiv"}' },
        },
      );
      expect(result.toolCalls).toEqual([
        { id: 'same', name: 'weather', arguments: kyiv, extraContent: signature('s0') },
        {
          id: tagged('same', 1),
          name: 'weather',
          arguments: `${rome} `,
          extraContent: signature('s1'),
        },
      ]);
      const second = result.toolCalls[1]?.id;
      // Every event that names a call names it as the answer does.
      expect(
        events.flatMap((e) =>
          e.type === 'tool-call-delta' ? [[e.call, e.id, e.extraContent]] : [],
        ),
      ).toEqual([
        [0, 'same', undefined],
        [1, second, undefined],
        [1, second, signature('s1')],
        [0, 'same', signature('s0')],
      ]);
    });

    it('two whole calls of one tool at index 0 without ids are two calls (Ollama via LiteLLM)', () => {
      const { result, events } = decodeCalls(
        { index: 0, type: 'function', function: { name: 'weather', arguments: kyiv } },
        { index: 0, type: 'function', function: { name: 'weather', arguments: rome } },
      );
      expect(result.toolCalls).toEqual([
        { id: tagged('call_0', 0), name: 'weather', arguments: kyiv },
        { id: tagged('call_0', 1), name: 'weather', arguments: rome },
      ]);
      expect(events.flatMap((e) => (e.type === 'tool-call-delta' ? [e.call] : []))).toEqual([0, 1]);
    });

    it('another tool at index 0 with the same id is another call, with an id of its own (OpenRouter)', () => {
      const { result, events } = decodeCalls(
        { index: 0, id: 'call_x', function: { name: 'weather', arguments: kyiv } },
        { index: 0, id: 'call_x', function: { name: 'time', arguments: '{"tz":' } },
        { index: 0, id: 'call_x', function: { arguments: '"UTC"}' } },
      );
      expect(result.toolCalls).toEqual([
        { id: 'call_x', name: 'weather', arguments: kyiv },
        { id: tagged('call_x', 1), name: 'time', arguments: '{"tz":"UTC"}' },
      ]);
      expect(callEvents(events)).toEqual([
        [0, 'call_x', 'weather'],
        [1, result.toolCalls[1]?.id, 'time'],
        [1, undefined, undefined],
      ]);
    });

    it('whole calls without index given one id are two calls, the second with an id of its own', () => {
      const { result } = decodeCalls(
        { id: 'same', function: { name: 'weather', arguments: kyiv } },
        { id: 'same', function: { name: 'weather', arguments: rome } },
      );
      expect(result.toolCalls).toEqual([
        { id: 'same', name: 'weather', arguments: kyiv },
        { id: tagged('same', 1), name: 'weather', arguments: rome },
      ]);
    });

    it('a piece without a name or id at one index continues the call, even after whole arguments', () => {
      // Nothing says it is another call (the anchor reads it so too); a new call would have no name.
      const { result } = decodeCalls(
        { index: 0, id: 'c', function: { name: 'weather', arguments: kyiv } },
        { index: 0, function: { arguments: rome } },
      );
      expect(result.toolCalls).toEqual([{ id: 'c', name: 'weather', arguments: kyiv + rome }]);
    });

    it('arguments split over many pieces at one index stay one call, whatever the pieces start with', () => {
      const { result } = decodeCalls(
        { index: 0, id: 'c', function: { name: 'f', arguments: '' } },
        { index: 0, function: { arguments: '{"a":' } },
        { index: 0, function: { arguments: '{"b":"}' } },
        { index: 0, function: { arguments: '{"}' } },
        { index: 0, id: 'c', function: { name: 'f', arguments: '}' } },
        { index: 0, function: { arguments: ' \n' } },
        { index: 0, function: { arguments: '  ' } },
      );
      expect(result.toolCalls).toEqual([
        { id: 'c', name: 'f', arguments: '{"a":{"b":"}{"}} \n  ' },
      ]);
    });
  });

  it('raises an in-stream error event with its gateway code', () => {
    const decoder = new ChatStreamDecoder({ requestedModel: 'm' });
    decoder.feed(sse(chunk([{ index: 0, delta: { role: 'assistant' } }])));
    let error: unknown;
    try {
      decoder.feed(
        sse(JSON.stringify({ error: { code: 'provider_request_failed', message: 'engine died' } })),
      );
    } catch (e) {
      error = e;
    }
    expect(isGatewayError(error) && error.code).toBe('provider_request_failed');
    expect(isGatewayError(error) && error.message).toBe('engine died');
    expect(isGatewayError(error) && error.requestedModel).toBe('m');
  });

  it("keeps a model server's words: TGI's string `error`, and the data of an `event: error`", () => {
    const start = sse(chunk([{ index: 0, delta: { role: 'assistant' } }]));
    const failure = (text: string) => {
      const decoder = new ChatStreamDecoder({ requestedModel: 'm' });
      try {
        decoder.feed(start + text);
        decoder.end();
      } catch (error) {
        if (isGatewayError(error)) return error;
      }
      throw new Error('no GatewayError');
    };
    const tgi = '{"error":"CUDA out of memory","error_type":"generation"}';
    const fromTgi = failure(`data: ${tgi}\n\n`);
    expect([fromTgi.code, fromTgi.message, fromTgi.type, fromTgi.body]).toEqual([
      'upstream_error',
      'CUDA out of memory',
      'generation',
      tgi,
    ]);
    expect(fromTgi.requestedModel).toBe('m');
    // The same code as an OpenAI-shaped error event from a model server.
    expect(failure(sse(JSON.stringify({ error: { message: 'oom' } }))).code).toBe('upstream_error');
    const typed = '{"message":"Upstream overloaded"}';
    for (const text of [
      `event: error\ndata: ${typed}\n\ndata: [DONE]\n\n`,
      `event:error\r\ndata: ${typed}\r\n\r\n`,
      `event: error\nid: 3\ndata: ${typed}\n\n`,
    ]) {
      const error = failure(text);
      expect([error.code, error.message, error.body, error.status], text).toEqual([
        'upstream_error',
        'Upstream overloaded',
        typed,
        200,
      ]);
    }
    const gateway = '{"error":{"code":"provider_protocol_error","message":"bad chunk"}}';
    expect(failure(`event: error\ndata: ${gateway}\n\n`).code).toBe('provider_protocol_error');
    expect(failure('event: error\ndata: {"error":"down"}\n\n').message).toBe('down');
    expect(failure('event: error\ndata: engine gone\n\n').message).toBe('engine gone');
    // An event type lasts for one event only: the next event is a chunk again.
    const after = new ChatStreamDecoder();
    after.feed(
      `${start}event: error\n\n${sse(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]))}`,
    );
    expect(after.hasFinish).toBe(true);
    expect(failure('event: error\ndata: {}\n\n').code).toBe('provider_protocol_error');
  });

  it('raises provider_protocol_error for an event that is not JSON', () => {
    const decoder = new ChatStreamDecoder();
    expect(codeOf(() => decoder.feed('data: {"choices":[{\n\n'))).toBe('provider_protocol_error');
  });

  it('raises provider_protocol_error for wrongly typed fields', () => {
    for (const bad of [
      '[1,2]',
      '"text"',
      JSON.stringify({ choices: {} }),
      JSON.stringify({ choices: [{ index: 0, delta: { content: 5 } }] }),
      JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: '0', id: 'x' }] } }] }),
      JSON.stringify({ choices: [{ index: 0, delta: { content: { text: 'x' } } }] }),
      JSON.stringify({ error: 5 }),
      JSON.stringify({ error: ' ' }),
      JSON.stringify({ choices: [[]] }),
      JSON.stringify({ choices: [-5e-324] }),
      JSON.stringify({ choices: [{ index: 0, delta: ['hi'] }] }),
      JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [[]] } }] }),
      JSON.stringify({
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: [] }] } }],
      }),
    ]) {
      expect(
        codeOf(() => new ChatStreamDecoder().feed(sse(bad))),
        bad,
      ).toBe('provider_protocol_error');
    }
  });

  it('raises stream_incomplete at the end after [DONE] without any finish_reason', () => {
    const decoder = new ChatStreamDecoder();
    decoder.feed(sse(chunk([{ index: 0, delta: { content: 'hi' } }]), '[DONE]'));
    expect(decoder.done).toBe(true);
    expect(codeOf(() => decoder.end())).toBe('stream_incomplete');
  });

  it('says [DONE] came without a finish_reason, not that [DONE] is missing', () => {
    const decoder = new ChatStreamDecoder();
    decoder.feed(sse(chunk([{ index: 0, delta: { content: 'hi' } }]), '[DONE]'));
    const message = messageOf(() => decoder.end());
    expect(message).toContain('sent [DONE]');
    expect(message).toContain('no choice had a finish_reason');
    expect(message).not.toContain('before [DONE]');
  });

  it('raises stream_incomplete when the input ends without finish_reason', () => {
    const decoder = new ChatStreamDecoder();
    decoder.feed(sse(chunk([{ index: 0, delta: { content: 'hi' } }])));
    expect(codeOf(() => decoder.end())).toBe('stream_incomplete');
  });

  it('says the connection closed before [DONE] when the input ends early', () => {
    const decoder = new ChatStreamDecoder();
    decoder.feed(sse(chunk([{ index: 0, delta: { content: 'hi' } }])));
    expect(messageOf(() => decoder.end())).toContain('closed before [DONE]');
  });

  it('accepts an end without [DONE] once a finish_reason arrived', () => {
    const decoder = new ChatStreamDecoder();
    decoder.feed(sse(chunk([{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }])));
    decoder.end();
    expect(decoder.result().text).toBe('hi');
  });

  it('ignores whatever follows [DONE]', () => {
    const { result } = decodeAll([
      sse(
        chunk([{ index: 0, delta: { content: 'a' }, finish_reason: 'stop' }]),
        '[DONE]',
        '{garbage',
      ),
    ]);
    expect(result.text).toBe('a');
  });

  it('property: any chunking of a valid stream gives the same events and result', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: FULL_STREAM.length }), { maxLength: 40 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const pieces: string[] = [];
        let last = 0;
        for (const point of points) {
          pieces.push(FULL_STREAM.slice(last, point));
          last = point;
        }
        pieces.push(FULL_STREAM.slice(last));
        expect(decodeAll(pieces).result).toEqual(EXPECTED);
      }),
      { seed: 20261121, numRuns: 300 },
    );
  });

  it('property: any chunking of the byte stream, decoded as UTF-8, gives the same result', () => {
    const unicode = sse(
      chunk([{ index: 0, delta: { role: 'assistant', content: 'Привіт 👋 ' } }]),
      chunk([{ index: 0, delta: { content: 'світе' }, finish_reason: 'stop' }]),
      '[DONE]',
    );
    const bytes = new TextEncoder().encode(unicode);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: bytes.length }), { maxLength: 30 }), (cuts) => {
        const decoder = new ChatStreamDecoder();
        const text = new TextDecoder();
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        let last = 0;
        for (const point of [...points, bytes.length]) {
          decoder.feed(text.decode(bytes.subarray(last, point), { stream: true }));
          last = point;
        }
        decoder.feed(text.decode());
        decoder.end();
        expect(decoder.result().text).toBe('Привіт 👋 світе');
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it('property: arbitrary input yields a result or a GatewayError, never another throw', () => {
    const fragments = fc.oneof(
      fc.string(),
      fc.constantFrom(
        'data: ',
        '\n',
        '\n\n',
        '\r\n',
        '[DONE]',
        ':comment\n',
        'event: x\n',
        '{',
        '}',
      ),
      fc.constantFrom(
        chunk([{ index: 0, delta: { content: 'x' } }]),
        chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
        JSON.stringify({ error: { code: 'model_busy', message: 'm' } }),
        JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 'x' }] } }] }),
        JSON.stringify({ choices: null, usage: 3 }),
      ),
    );
    fc.assert(
      fc.property(
        fc.array(fragments, { maxLength: 30 }),
        fc.uint8Array({ maxLength: 64 }),
        (parts, noise) => {
          const decoder = new ChatStreamDecoder();
          try {
            for (const part of parts) decoder.feed(part);
            decoder.feed(new TextDecoder().decode(noise));
            decoder.end();
            expect(typeof decoder.result().finishReason).toBe('string');
          } catch (error) {
            expect(isGatewayError(error)).toBe(true);
          }
        },
      ),
      { seed: 42, numRuns: 500 },
    );
  });
});

describe('ChatStreamDecoder: empty events', () => {
  it('skips an event whose data is empty or blank (a keep-alive), wherever it comes', () => {
    const [first, ...rest] = FULL_STREAM.split(/(?<=\n\n)/);
    const pieces = ['data:\n\n', first!, 'data: \n\n', 'data:  \n\n', ...rest];
    expect(decodeAll(pieces).result).toEqual(EXPECTED);
  });
});
