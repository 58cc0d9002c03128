// A stream whose first chunk's lone choice says `index: 1` and whose later chunks carry their lone
// choice without `index`: the later pieces continue that choice, so stream()'s message is all of
// it, as ChatOpenAI (which joins every chunk) reads it. Core decides; the adapter maps.
import { chatSse, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const MODEL = 'community/general';
const USAGE = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };

describe('stream(), a lone choice without index after one sent as index 1', () => {
  it('continues it: the whole content and its finish', async () => {
    const sse = chatSse(MODEL, [
      { choices: [{ index: 1, delta: { role: 'assistant', content: 'Hel' } }] },
      { choices: [{ delta: { content: 'lo' } }] },
      { choices: [{ delta: {}, finish_reason: 'stop' }], usage: USAGE },
    ]);
    const connection = intercepting(await emulate(), async (request) =>
      request.url.endsWith('/chat/completions')
        ? new Response(sse, { headers: { 'content-type': 'text/event-stream' } })
        : undefined,
    );
    const chunks = [];
    for await (const chunk of await new GatewayChatModel(MODEL, connection).stream('hi')) {
      chunks.push(chunk);
    }
    const merged = chunks.reduce((a, b) => a.concat(b));
    expect(merged.content).toBe('Hello');
    expect(merged.response_metadata.finish_reason).toBe('stop');
  });
});
