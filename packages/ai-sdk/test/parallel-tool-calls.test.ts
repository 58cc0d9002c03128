// Parallel tool calls in shapes model servers really send (docs/gateway-protocol.md §5.4), through
// `streamText` / `generateText` with tools that run: each call runs once, with an id of its own,
// and step 2 sends one `tool` message per call. Core splits and names the calls; the adapter maps.

import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const MODEL = 'community/general';

type Piece = Record<string, unknown>;
const piece = (index: number, id: string | undefined, name: string, args: string): Piece => ({
  index,
  ...(id !== undefined && { id }),
  type: 'function',
  function: { name, arguments: args },
});
const KYIV = '{"city":"Kyiv"}';
const ROME = '{"city":"Rome"}';

/**
 * `fetch` answering the first chat request with `calls` (streamed one piece per chunk, or whole
 * when the request does not stream) and any later one with "Done"; it keeps the request bodies.
 */
function scripted(calls: Piece[]) {
  const bodies: { messages: Record<string, unknown>[] }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
    const body = await request.json();
    bodies.push(body);
    const first = bodies.length === 1;
    const headers = { 'x-service-model': MODEL };
    if (!body.stream) {
      const message = first
        ? { role: 'assistant', content: null, tool_calls: calls.map(({ index, ...call }) => call) }
        : { role: 'assistant', content: 'Done' };
      const choice = { index: 0, message, finish_reason: first ? 'tool_calls' : 'stop' };
      return Response.json({ id: 'a', object: 'chat.completion', choices: [choice] }, { headers });
    }
    const reason = first ? 'tool_calls' : 'stop';
    const deltas: Piece[] = first
      ? calls.map((call) => ({ tool_calls: [call] }))
      : [{ content: 'Done' }];
    const choices: Piece[] = deltas.map((delta) => ({ index: 0, delta }));
    choices.push({ index: 0, delta: {}, finish_reason: reason });
    const events = choices.map((choice) => ({
      id: 'a',
      object: 'chat.completion.chunk',
      choices: [choice],
    }));
    const text = [...events.map((event) => JSON.stringify(event)), '[DONE]']
      .map((data) => `data: ${data}\n\n`)
      .join('');
    return new Response(text, { headers: { ...headers, 'content-type': 'text/event-stream' } });
  };
  return { bodies, fetch };
}

function tools(ran: string[]) {
  return {
    weather: tool({
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        ran.push(city);
        return `Sunny in ${city}`;
      },
    }),
    now: tool({
      inputSchema: z.object({}),
      execute: async () => {
        ran.push('now');
        return '12:00';
      },
    }),
    time: tool({
      inputSchema: z.object({ tz: z.string() }),
      execute: async ({ tz }) => {
        ran.push(tz);
        return '12:00';
      },
    }),
  };
}

/** The ids of the calls step 2 replays, and the ids its tool results answer. */
function replayedIds(body: { messages: Record<string, unknown>[] } | undefined) {
  const messages = body?.messages ?? [];
  const assistant = messages.find((message) => message.role === 'assistant');
  const calls = (assistant?.tool_calls ?? []) as { id: string }[];
  return {
    calls: calls.map((call) => call.id),
    results: messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id),
  };
}

const SHAPES: [string, Piece[], string[]][] = [
  [
    'two calls given one id at indexes 0 and 1 (DeepSeek, GLM, OpenRouter)',
    [piece(0, 'call_00_same', 'weather', KYIV), piece(1, 'call_00_same', 'weather', ROME)],
    ['Kyiv', 'Rome'],
  ],
  [
    'two whole calls of one tool at index 0 without ids',
    [piece(0, undefined, 'weather', KYIV), piece(0, undefined, 'weather', ROME)],
    ['Kyiv', 'Rome'],
  ],
  [
    'calls of two tools at index 0 with one id (OpenRouter)',
    [piece(0, 'call_x', 'weather', KYIV), piece(0, 'call_x', 'time', '{"tz":"UTC"}')],
    ['Kyiv', 'UTC'],
  ],
  [
    'two whole calls of a tool without parameters, without index or id (arguments "")',
    [0, 1].map(() => ({ type: 'function', function: { name: 'now', arguments: '' } })),
    ['now', 'now'],
  ],
];

describe('parallel tool calls through streamText: each runs, each answered by its own id', () => {
  for (const [title, calls, cities] of SHAPES) {
    it(title, async () => {
      const ran: string[] = [];
      const { bodies, fetch } = scripted(calls);
      const result = streamText({
        model: gateway({ fetch })(MODEL),
        prompt: 'weather',
        tools: tools(ran),
        stopWhen: stepCountIs(2),
      });
      expect(await result.text).toBe('Done');
      expect(ran.sort()).toEqual(cities);
      const [first] = await result.steps;
      const ids = first?.toolCalls.map((call) => call.toolCallId) ?? [];
      expect(new Set(ids).size).toBe(2);
      expect(first?.toolResults.map((call) => call.toolCallId)).toEqual(ids);
      expect(replayedIds(bodies[1])).toEqual({ calls: ids, results: ids });
    });
  }
});

describe('parallel tool calls given one id through generateText (a whole answer)', () => {
  it('each runs, and step 2 answers each by its own id', async () => {
    const ran: string[] = [];
    const { bodies, fetch } = scripted(SHAPES[0]?.[1] ?? []);
    const result = await generateText({
      model: gateway({ fetch })(MODEL),
      prompt: 'weather',
      tools: tools(ran),
      stopWhen: stepCountIs(2),
    });
    expect(result.text).toBe('Done');
    expect(ran.sort()).toEqual(['Kyiv', 'Rome']);
    const ids = result.steps[0]?.toolCalls.map((call) => call.toolCallId) ?? [];
    expect(ids).toEqual(['call_00_same', expect.stringMatching(/^call_00_same_1_[0-9a-f]{12}$/)]);
    expect(replayedIds(bodies[1])).toEqual({ calls: ids, results: ids });
  });
});
