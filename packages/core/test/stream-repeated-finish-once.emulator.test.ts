import { repeatedFinishSse } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { chatAnsweredWith, hi } from './helpers';

// docs/gateway-protocol.md §5.6: a server that repeats choice 0's finish_reason (OpenRouter: a
// finish chunk, then one with the same finish_reason and the usage) gives a consumer of
// `chatStream` one `finish` event, and the usage of the later chunk. The emulator serves the
// catalog; a stub answers the stream with those bytes.
const MODEL = 'community/streamer';
const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
const body = repeatedFinishSse(MODEL, { usage });

describe('a stream that repeats its finish_reason with the usage', () => {
  it('hands out one finish per choice, and the usage of the later chunk', async () => {
    const client = await chatAnsweredWith(body, { 'content-type': 'text/event-stream' });
    const stream = await client.chatStream(hi(MODEL), { capabilities: ['chat', 'streaming'] });
    const types: string[] = [];
    let seenUsage: unknown;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'usage') seenUsage = event.usage;
    }
    expect(types.filter((type) => type === 'finish')).toHaveLength(1);
    expect(seenUsage).toMatchObject(usage);
    const result = await stream.result();
    expect(result).toMatchObject({ finishReason: 'stop', usage: expect.objectContaining(usage) });
  });
});
