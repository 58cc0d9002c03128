import { caught, emulate, watchedChatReads } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../src/index';
import { clientOn, PLACE_SCHEMA } from './helpers';

// A structured stream whose map holds its text (JSON in prose) is read ahead inside its attempt
// until content would reach the caller (docs/gateway-protocol.md §4.8 item 5). The caller's abort
// during that read must cancel the body, as it does before the first content (§4.7): a `fetch`
// deaf to its signal ends a body only on cancel, and the call would wait on the stall.
const model = 'community/so-prose';

describe('a held structured stream aborted while it is read ahead', () => {
  it('cancels its body and gives its slot back; the call fails aborted', async () => {
    const gateway = await emulate({
      scenario: {
        models: {
          [model]: {
            owned_by: 'service-community',
            online: true,
            capabilities: ['chat', 'streaming', 'json_schema'],
            jsonAnswers: { wrap: 'prose' },
          },
        },
      },
    });
    // The role and two words of prose ("Here is "), then nothing for longer than any test.
    gateway.emulator.injectFault({ fault: 'stall_stream', model, afterChunks: 3, ms: 60_000 });
    // A `fetch` deaf to its signal; `readPast` once the client reads on after the first chunk.
    const deaf = watchedChatReads(gateway.fetch, '"role":"assistant"', { deaf: true });
    const client = clientOn(gateway, { fetch: deaf.fetch });
    const controller = new AbortController();
    const call = client.chatStream(
      {
        model,
        messages: [{ role: 'user', content: 'Where is "Oslo"?' }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'place', schema: PLACE_SCHEMA },
        },
      },
      { signal: controller.signal },
    );
    await deaf.readPast;
    controller.abort();
    // The body cancelled (the emulator saw it) and the request's slot given back at the gateway.
    await gateway.untilCancelled(1);
    await gateway.untilIdle();
    const error = await caught<GatewayError>(call);
    expect(error.code).toBe('aborted');
    await gateway.close();
  });
});
