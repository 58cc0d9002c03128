import { repeatedFinishSse } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { chatAnsweredWith, hi } from './helpers';

// docs/gateway-protocol.md §5.6: a server that sends `system_fingerprint` / `service_tier` only on
// its last chunk, the one that repeats choice 0's finish_reason with the usage (OpenRouter), gives
// them to a consumer of `chatStream` with the usage event (its repeated finish is not handed out
// again). The emulator serves the catalog; a stub answers the stream with those bytes.
const MODEL = 'community/streamer';
const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
const tags = { system_fingerprint: 'fp_late', service_tier: 'flex' };
const body = repeatedFinishSse(MODEL, { usage, ...tags });

describe('tags sent only with the usage, on a repeated finish', () => {
  it('the usage event carries system_fingerprint and service_tier; one finish', async () => {
    const client = await chatAnsweredWith(body, { 'content-type': 'text/event-stream' });
    const stream = await client.chatStream(hi(MODEL), { capabilities: ['chat', 'streaming'] });
    const events: { type: string }[] = [];
    for await (const event of stream) events.push(event);
    expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
    expect(events.find((event) => event.type === 'usage')).toMatchObject({
      usage: expect.objectContaining(usage),
      systemFingerprint: 'fp_late',
      serviceTier: 'flex',
    });
  });
});
