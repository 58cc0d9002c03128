import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../src/index';
import { clientOn, PLACE_SCHEMA } from './helpers';

// A structured stream whose map holds its text (JSON in prose) is read ahead inside its attempt
// until content would reach the caller (docs/gateway-protocol.md §4.8 item 5). The caller's abort
// during that read must cancel the body, as it does before the first content (§4.7): a `fetch`
// deaf to its signal ends a body only on cancel, and the call would wait on the stall.
const model = 'community/so-prose';

/**
 * The emulator reached by a `fetch` deaf to its signal, whose chat bodies tell `pastFirstChunk` when
 * they are read past their first chunk (what the transport reads first holds the first content).
 */
function deafFetch(gatewayFetch: typeof fetch) {
  let readingOn!: () => void;
  const pastFirstChunk = new Promise<void>((resolve) => {
    readingOn = resolve;
  });
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await gatewayFetch(input, { ...init, signal: null });
    if (!String(input).endsWith('/chat/completions')) return response;
    const inner = response.body!.getReader();
    let reads = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (++reads === 2) readingOn();
          const next = await inner.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel: (reason) => inner.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, response);
  };
  return { fetch, pastFirstChunk };
}

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
    const deaf = deafFetch(gateway.fetch);
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
    await deaf.pastFirstChunk;
    controller.abort();
    // The body cancelled (the emulator saw it) and the request's slot given back at the gateway.
    await gateway.untilCancelled(1);
    await gateway.untilIdle();
    const error = await caught<GatewayError>(call);
    expect(error.code).toBe('aborted');
    await gateway.close();
  });
});
