// A stream whose chunks carry two choices without `index` (a server that omits it): a choice
// without one is at its position in the chunk, so the message is the first choice's, its content
// and its tool call alone, as ChatOpenAI reads it. Core decides; the adapter maps.
import { chatSse, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const MODEL = 'community/general';
const USAGE = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
const call = (id: string, city: string) => ({
  index: 0,
  id,
  type: 'function',
  function: { name: 'weather', arguments: JSON.stringify({ city }) },
});
const both = (deltas: object[], finish: string) =>
  chatSse(MODEL, [
    { choices: deltas.map((delta) => ({ delta: { role: 'assistant', ...delta } })) },
    { choices: deltas.map(() => ({ delta: {}, finish_reason: finish })), usage: USAGE },
  ]);

async function streamed(sse: string) {
  const connection = intercepting(await emulate(), async (request) =>
    request.url.endsWith('/chat/completions')
      ? new Response(sse, { headers: { 'content-type': 'text/event-stream' } })
      : undefined,
  );
  const model = new GatewayChatModel(MODEL, connection);
  const chunks = [];
  for await (const chunk of await model.stream('yes or no?')) chunks.push(chunk);
  return chunks.reduce((a, b) => a.concat(b));
}

describe('stream(), two choices per chunk without index', () => {
  it("the first choice's content only", async () => {
    const merged = await streamed(
      both([{ content: 'The answer is yes.' }, { content: 'No.' }], 'stop'),
    );
    expect(merged.content).toBe('The answer is yes.');
  });

  it("the first choice's tool call only", async () => {
    const merged = await streamed(
      both(
        [{ tool_calls: [call('call_a', 'Oslo')] }, { tool_calls: [call('call_b', 'Rome')] }],
        'tool_calls',
      ),
    );
    expect(merged.tool_calls).toEqual([
      { type: 'tool_call', id: 'call_a', name: 'weather', args: { city: 'Oslo' } },
    ]);
  });
});
