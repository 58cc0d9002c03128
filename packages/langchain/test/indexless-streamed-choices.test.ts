// A stream whose chunks carry two choices without `index` (a server that omits it): a choice
// without one is at its position in the chunk, so the message is the first choice's, its content
// and its tool call alone, as ChatOpenAI reads it. Core decides; the adapter maps.
import { emulate, indexlessChoicesSse, weatherCall } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const MODEL = 'community/general';
const both = (deltas: object[], finish: string) => indexlessChoicesSse(MODEL, deltas, finish);

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
        [
          { tool_calls: [weatherCall('call_a', 'Oslo')] },
          { tool_calls: [weatherCall('call_b', 'Rome')] },
        ],
        'tool_calls',
      ),
    );
    expect(merged.tool_calls).toEqual([
      { type: 'tool_call', id: 'call_a', name: 'weather', args: { city: 'Oslo' } },
    ]);
  });
});
