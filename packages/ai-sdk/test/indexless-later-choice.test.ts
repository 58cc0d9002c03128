// A stream whose first chunk's lone choice says `index: 1` and whose later chunks carry their lone
// choice without `index`: the later pieces continue that choice, so streamText's text is all of
// it, as @ai-sdk/openai-compatible (each chunk's first choice) reads it. Core decides; the adapter
// maps.
import { chatSse } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const MODEL = 'community/general';
const USAGE = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };

describe('streamText, a lone choice without index after one sent as index 1', () => {
  it('continues it: the whole text and its finish', async () => {
    const sse = chatSse(MODEL, [
      { choices: [{ index: 1, delta: { role: 'assistant', content: 'Hel' } }] },
      { choices: [{ delta: { content: 'lo' } }] },
      { choices: [{ delta: {}, finish_reason: 'stop' }], usage: USAGE },
    ]);
    const fetch = answeringChats(
      () => new Response(sse, { headers: { 'content-type': 'text/event-stream' } }),
    );
    const result = streamText({ model: gateway({ fetch })(MODEL), prompt: 'hi' });
    expect([await result.text, await result.finishReason]).toEqual(['Hello', 'stop']);
  });
});
