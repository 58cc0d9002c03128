// A tool call whose `function.arguments` is JSON, not its text (llama.cpp#20198; docs/gateway-protocol.md
// §4.4, §5.4): through bindTools, `.invoke()` and `.stream()` keep the answer's text and give the
// call with its arguments parsed; arguments that are JSON but no object give an invalid call.

import { readToolArguments } from '@infergate/core/internal';
import { emulate } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting, weatherTool } from './helpers';

const MODEL = 'community/general';
const TEXT = 'Let me check.';

/** The server's answer to every chat request: `TEXT`, then one call of weather with `args` as sent. */
function serverAnswer(args: unknown, streamed: boolean): Response {
  const call = { id: 'c1', type: 'function', function: { name: 'weather', arguments: args } };
  const headers = { 'x-service-model': MODEL };
  if (!streamed) {
    const message = { role: 'assistant', content: TEXT, tool_calls: [call] };
    const choices = [{ index: 0, message, finish_reason: 'tool_calls' }];
    return Response.json({ id: 'w', object: 'chat.completion', choices }, { headers });
  }
  const deltas = [
    { role: 'assistant', content: TEXT },
    { tool_calls: [{ index: 0, ...call }] },
    {},
  ];
  const data = deltas.map((delta, i) => {
    const finish = i === deltas.length - 1 ? 'tool_calls' : null;
    return {
      id: 's',
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finish }],
    };
  });
  const body = [...data.map((d) => JSON.stringify(d)), '[DONE]'].map((d) => `data: ${d}\n\n`);
  return new Response(body.join(''), {
    headers: { ...headers, 'content-type': 'text/event-stream' },
  });
}

async function boundModel(args: unknown) {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) =>
    request.url.endsWith('/chat/completions')
      ? serverAnswer(args, (await request.json()).stream === true)
      : undefined,
  );
  return (await GatewayChatModel.create(MODEL, connection)).bindTools([weatherTool]);
}

/** Both readings of one answer: `.invoke()` (whole) and `.stream()` joined. */
async function invokedAndStreamed(args: unknown) {
  const model = await boundModel(args);
  const invoked = await model.invoke('weather in Kyiv?');
  let joined: AIMessageChunk | undefined;
  for await (const chunk of await model.stream('weather in Kyiv?'))
    joined = joined ? concat(joined, chunk) : chunk;
  return [invoked, joined];
}

describe('tool-call arguments sent as a JSON object, through bindTools', () => {
  it('.invoke() and .stream() give the call with its arguments parsed and keep the text', async () => {
    for (const message of await invokedAndStreamed({ city: 'Kyiv' })) {
      expect(message?.content).toBe(TEXT);
      expect(message?.tool_calls?.map(({ id, name, args }) => ({ id, name, args }))).toEqual([
        { id: 'c1', name: 'weather', args: { city: 'Kyiv' } },
      ]);
      expect(message?.invalid_tool_calls).toEqual([]);
    }
  });

  it('arguments that are a number: the text kept, the call given as invalid', async () => {
    for (const message of await invokedAndStreamed(7)) {
      expect(message?.content).toBe(TEXT);
      expect(message?.tool_calls).toEqual([]);
      expect(message?.invalid_tool_calls).toMatchObject([{ id: 'c1', name: 'weather', args: '7' }]);
    }
  });
});

// Whether a call's arguments parse is core's rule (`readToolArguments`, §4.5): the chat model maps
// its reading (an object: `tool_calls`; otherwise `invalid_tool_calls` naming core's fault), as
// ChatOpenAI's stream reads the same bytes ('' a call with `{}`; `null`, `[1]`, `{bad` invalid).
describe('tool-call arguments as core reads them, through .invoke() and .stream()', () => {
  it.each([
    ['', true],
    ['{"city":"Kyiv"}', true],
    ['null', false],
    ['[1]', false],
    ['{bad', false],
  ])('arguments %j', async (args, parses) => {
    const read = readToolArguments(args);
    expect(read.ok).toBe(parses);
    for (const message of await invokedAndStreamed(args)) {
      if (read.ok) {
        expect(message?.tool_calls).toMatchObject([
          { id: 'c1', name: 'weather', args: read.value },
        ]);
        expect(message?.invalid_tool_calls).toEqual([]);
      } else {
        expect(message?.tool_calls).toEqual([]);
        expect(message?.invalid_tool_calls).toMatchObject([
          { id: 'c1', name: 'weather', args, error: read.error },
        ]);
      }
    }
  });
});
