// Streamed tool arguments that are not valid JSON (docs/gateway-protocol.md §4.5): LangChain joins
// stream chunks with a parser that completes cut JSON, so a call cut by `finish_reason: 'length'`
// would become a normal call with a truncated path. Joined by `.stream()`'s concat, by `invoke` on
// a `streaming: true` model and by an agent streaming messages, it is an invalid_tool_call, as
// `invoke` without streaming has it, and no tool runs.

import { emulate } from '@infergate/emulator/testing';
import { load } from '@langchain/core/load';
import type { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { concat } from '@langchain/core/utils/stream';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const MODEL = 'community/general';
const CUT = '{"path":"/tmp/important-dir/cache';

function sse(deltas: Array<{ delta: object; finish?: string }>): Response {
  const data = deltas.map(({ delta, finish }) => ({
    id: 's',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish ?? null }],
  }));
  const body = [...data.map((d) => JSON.stringify(d)), '[DONE]'].map((d) => `data: ${d}\n\n`);
  return new Response(body.join(''), {
    headers: { 'x-service-model': MODEL, 'content-type': 'text/event-stream' },
  });
}

/** A call of `rm` whose arguments `args` arrive in two pieces, then `finish`; after a tool result, text. */
function answer(args: string, finish: string, afterTool: boolean): Response {
  if (afterTool) return sse([{ delta: { role: 'assistant', content: 'done' }, finish: 'stop' }]);
  const half = Math.floor(args.length / 2);
  const call = { index: 0, id: 'a', type: 'function', function: { name: 'rm', arguments: '' } };
  return sse([
    { delta: { role: 'assistant', content: null, tool_calls: [call] } },
    { delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] } },
    { delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] } },
    { delta: {}, finish },
  ]);
}

async function model(args: string, finish: string, streaming = false) {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const body = await request.json();
    return answer(args, finish, body.messages.at(-1).role === 'tool');
  });
  return GatewayChatModel.create(MODEL, { ...connection, streaming });
}

const ran: string[] = [];
const rm = tool(
  async ({ path }) => {
    ran.push(path);
    return `removed ${path}`;
  },
  { name: 'rm', description: 'Remove a path', schema: z.object({ path: z.string() }) },
);

const invalid = (args: string) => ({
  tool_calls: [],
  invalid_tool_calls: [expect.objectContaining({ id: 'a', name: 'rm', args })],
});

describe.each([
  ['cut by finish length', CUT, 'length'],
  ['missing its brace', '{"path":"/x"', 'tool_calls'],
])('streamed tool arguments %s', (_, args, finish) => {
  it('are an invalid_tool_call in .stream() chunks joined with concat', async () => {
    const bound = (await model(args, finish)).bindTools([rm]);
    let joined: AIMessageChunk | undefined;
    const partial: unknown[] = [];
    for await (const chunk of await bound.stream('clean')) {
      joined = joined ? concat(joined, chunk) : chunk;
      partial.push(...joined.tool_calls!);
    }
    expect(joined).toMatchObject(invalid(args));
    // While the answer streams, the call shows as LangChain reads partial arguments.
    expect(partial).toContainEqual(expect.objectContaining({ id: 'a', name: 'rm' }));
    // Serialised (a LangGraph checkpoint) and loaded, the call is still invalid, never run.
    expect(await load<AIMessage>(JSON.stringify(joined))).toMatchObject(invalid(args));
  });

  it('are an invalid_tool_call from invoke on a streaming model', async () => {
    const bound = (await model(args, finish, true)).bindTools([rm]);
    expect(await bound.invoke('clean')).toMatchObject(invalid(args));
  });

  it('are not run by an agent that streams messages', async () => {
    ran.length = 0;
    const agent = createAgent({ model: await model(args, finish), tools: [rm] });
    const input = { messages: [{ role: 'user', content: 'clean' }] };
    const stream = await agent.stream(input, { streamMode: 'messages' });
    for await (const _ of stream);
    expect(ran).toEqual([]);
  });
});

describe('streamed valid tool arguments', () => {
  it('are run by an agent that streams messages', async () => {
    ran.length = 0;
    const agent = createAgent({
      model: await model('{"path":"/tmp/x"}', 'tool_calls'),
      tools: [rm],
    });
    const stream = await agent.stream(
      { messages: [{ role: 'user', content: 'clean' }] },
      { streamMode: 'messages' },
    );
    for await (const _ of stream);
    expect(ran).toEqual(['/tmp/x']);
  });
});
