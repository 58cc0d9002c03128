// Parallel tool calls in shapes model servers really send (docs/gateway-protocol.md §5.4), through
// a model with bindTools: `.stream()` joined with concat and `.invoke()` (whole and streamed) give
// every call, each with its own id and its arguments parsed. Core splits and names the calls.

import { emulate } from '@infergate/emulator/testing';
import { type AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { intercepting, joinedStream, nowTool, weatherTool } from './helpers';

const MODEL = 'community/general';
const timeTool = tool(async () => '12:00', {
  name: 'time',
  description: 'The time in a time zone',
  schema: z.object({ tz: z.string() }),
});

type Piece = Record<string, unknown>;
/** A call's piece: its function, with `index` and `id` put in by the shapes below. */
const fn = (name: string, args: string) => ({
  type: 'function',
  function: { name, arguments: args },
});

/** The chat answer: `calls` streamed one piece per chunk, or whole when the request does not stream. */
function answer(calls: Piece[], stream: boolean): Response {
  const headers = { 'x-service-model': MODEL };
  if (!stream) {
    const message = {
      role: 'assistant',
      content: null,
      tool_calls: calls.map(({ index, ...c }) => c),
    };
    const choice = { index: 0, message, finish_reason: 'tool_calls' };
    return Response.json({ id: 'a', object: 'chat.completion', choices: [choice] }, { headers });
  }
  const lines = [...calls.map((call) => ({ tool_calls: [call] })), null].map((delta) => {
    const choice = delta
      ? { index: 0, delta }
      : { index: 0, delta: {}, finish_reason: 'tool_calls' };
    return `data: ${JSON.stringify({ id: 'a', object: 'chat.completion.chunk', choices: [choice] })}\n\n`;
  });
  return new Response(`${lines.join('')}data: [DONE]\n\n`, {
    headers: { ...headers, 'content-type': 'text/event-stream' },
  });
}

async function modelAnswering(calls: Piece[], streaming = false) {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const body = await request.json();
    return answer(calls, body.stream === true);
  });
  const model = await GatewayChatModel.create(MODEL, { ...connection, streaming });
  return model.bindTools([weatherTool, timeTool, nowTool]);
}

const calls = (message: AIMessageChunk | undefined) =>
  (message?.tool_calls ?? []).map((call) => [call.id, call.name, call.args]);

const kyiv = fn('weather', '{"city":"Kyiv"}');
const rome = fn('weather', '{"city":"Rome"}');
/** What a model gives for the shapes of the two weather calls above: Kyiv's, then Rome's. */
const KYIV_THEN_ROME: [string, Record<string, string>][] = [
  ['weather', { city: 'Kyiv' }],
  ['weather', { city: 'Rome' }],
];

const SHAPES: [string, Piece[], [string, Record<string, string>][]][] = [
  [
    'two calls given one id at indexes 0 and 1 (DeepSeek, GLM, OpenRouter)',
    [
      { index: 0, id: 'call_00_same', ...kyiv },
      { index: 1, id: 'call_00_same', ...rome },
    ],
    KYIV_THEN_ROME,
  ],
  [
    'two whole calls of one tool at index 0 without ids',
    [
      { index: 0, ...kyiv },
      { index: 0, ...rome },
    ],
    KYIV_THEN_ROME,
  ],
  [
    'calls of two tools at index 0 with one id (OpenRouter)',
    [
      { index: 0, id: 'call_x', ...kyiv },
      { index: 0, id: 'call_x', ...fn('time', '{"tz":"UTC"}') },
    ],
    [
      ['weather', { city: 'Kyiv' }],
      ['time', { tz: 'UTC' }],
    ],
  ],
  [
    'two whole calls of a tool without parameters, without index or id (arguments "")',
    [fn('now', ''), fn('now', '')],
    [
      ['now', {}],
      ['now', {}],
    ],
  ],
];

describe('parallel tool calls through a LangChain model with bindTools', () => {
  for (const [title, pieces, expected] of SHAPES) {
    it(`${title}: .stream() joined and a streamed .invoke() hold both calls, ids apart`, async () => {
      const model = await modelAnswering(pieces, true);
      const joined = await joinedStream(model.stream([new HumanMessage('weather')]));
      const invoked = await model.invoke([new HumanMessage('weather')]);
      for (const message of [joined, invoked]) {
        expect(calls(message).map(([, name, args]) => [name, args])).toEqual(expected);
        expect(new Set(calls(message).map(([id]) => id)).size).toBe(2);
        expect(message?.invalid_tool_calls ?? []).toEqual([]);
      }
    });
  }

  it('a whole answer whose two calls share one id: .invoke() gives the second an id of its own', async () => {
    const model = await modelAnswering(SHAPES[0]?.[1] ?? []);
    const message = await model.invoke([new HumanMessage('weather')]);
    expect(calls(message)).toEqual([
      ['call_00_same', 'weather', { city: 'Kyiv' }],
      [expect.stringMatching(/^call_00_same_1_[0-9a-f]{12}$/), 'weather', { city: 'Rome' }],
    ]);
  });
});

describe('a streamed call whose server id comes on its second piece (ChatOpenAI keeps it)', () => {
  it(".stream() joined and a streamed .invoke() give the call the server's id", async () => {
    const pieces = [
      { index: 0, ...fn('weather', '') },
      { index: 0, id: 'srv_1', function: { arguments: '{"city":"Kyiv"}' } },
    ];
    const model = await modelAnswering(pieces, true);
    const joined = await joinedStream(model.stream([new HumanMessage('weather')]));
    const invoked = await model.invoke([new HumanMessage('weather')]);
    for (const message of [joined, invoked]) {
      expect(calls(message)).toEqual([['srv_1', 'weather', { city: 'Kyiv' }]]);
      expect(message?.invalid_tool_calls ?? []).toEqual([]);
    }
  });
});
