// One choice asked: a stream whose first chunk's lone choice has no `index` and whose later chunks
// say `index: 1` (or the other way round, finishing at `index: 0`) is one answer, as
// @ai-sdk/openai-compatible (each chunk's first choice) reads it. Core decides; the adapter maps.
import { chatSse } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const MODEL = 'community/general';
const USAGE = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };

async function streamed(chunks: Parameters<typeof chatSse>[1]) {
  const sse = chatSse(MODEL, chunks);
  const fetch = answeringChats(
    () => new Response(sse, { headers: { 'content-type': 'text/event-stream' } }),
  );
  const result = streamText({ model: gateway({ fetch })(MODEL), prompt: 'hi' });
  return [await result.text, await result.finishReason];
}

describe('streamText, lone choices with and without index', () => {
  it('first without index, then index 1: the whole text and its finish', async () => {
    const answer = await streamed([
      { choices: [{ delta: { role: 'assistant', content: 'Hel' } }] },
      { choices: [{ index: 1, delta: { content: 'lo' } }] },
      { choices: [{ index: 1, delta: {}, finish_reason: 'stop' }], usage: USAGE },
    ]);
    expect(answer).toEqual(['Hello', 'stop']);
  });

  it('index 1, then without index, then a finish at index 0: the whole text', async () => {
    const answer = await streamed([
      { choices: [{ index: 1, delta: { role: 'assistant', content: 'Hel' } }] },
      { choices: [{ delta: { content: 'lo' } }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: USAGE },
    ]);
    expect(answer).toEqual(['Hello', 'stop']);
  });
});
