// docs/gateway-protocol.md §4.6: the answering model is `X-Service-Model`, else the body's `model`,
// else the model sent — on a stream too, whose body's `model` is its chunks'.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/index';
import { clientOn, hi, only } from './helpers';

const POOL = 'pool-a/llama-3-8b';

/**
 * The emulator's gateway, its chat answers a canned stream from `POOL` (`header`: its
 * `X-Service-Model`; `cut`: the body ends after the first chunk, before any finish_reason).
 */
async function poolAnswers(header?: string, cut = false) {
  const gateway = await emulate();
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c9', object: 'chat.completion.chunk', created: 1, model: POOL, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const first = chunk({ role: 'assistant', content: 'hi' });
  const sse = cut ? first : `${first}${chunk({}, 'stop')}data: [DONE]\n\n`;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return gateway.fetch(request);
    const headers: Record<string, string> = { 'content-type': 'text/event-stream' };
    if (header !== undefined) headers['x-service-model'] = header;
    return new Response(sse, { headers });
  };
  const events: GatewayEvent[] = [];
  const client = clientOn(gateway, {
    fetch,
    onEvent: (event) => {
      if (event.operation === 'chat') events.push(event);
    },
  });
  return { client, events };
}

describe("a stream's answering model", () => {
  it("without X-Service-Model is its chunks' model, from the metadata event that announces it on", async () => {
    const { client, events } = await poolAnswers();
    const stream = await client.chatStream(hi());
    let announced: string | undefined;
    for await (const event of stream) {
      if (event.type === 'metadata') announced = stream.servedModel;
    }
    expect(announced).toBe(POOL);
    expect(stream.servedModel).toBe(POOL);
    expect(stream.fallback).toBe(true);
    expect(stream.route).toEqual({
      requested: ['community/general'],
      hops: [{ model: 'community/general', outcome: 'answered' }],
      answeredBy: POOL,
    });
    // The call's events say so too, as for a whole answer's body.
    expect(only(events, 'fallback')).toMatchObject([
      { requestedModel: 'community/general', servedModel: POOL },
    ]);
    expect(only(events, 'done')).toMatchObject([{ ok: true, servedModel: POOL }]);
  });

  it("without X-Service-Model is its chunks' model in the error of a stream cut after them", async () => {
    // The decoder's errors and the stream's name the models from one record (sse-chat-stream.ts).
    const { client } = await poolAnswers(undefined, true);
    const stream = await client.chatStream(hi());
    const error = await caught(() => stream.result());
    expect(error).toMatchObject({
      code: 'stream_incomplete',
      requestedModel: 'community/general',
      servedModel: POOL,
    });
    expect(stream.servedModel).toBe(POOL);
  });

  it('is the header when there is one, whatever the chunks say', async () => {
    const { client, events } = await poolAnswers('community/general');
    const stream = await client.chatStream(hi());
    await stream.result();
    expect(stream.servedModel).toBe('community/general');
    expect(stream.fallback).toBe(false);
    expect(stream.route.answeredBy).toBe('community/general');
    expect(only(events, 'fallback')).toEqual([]);
    expect(only(events, 'done')).toMatchObject([{ ok: true, servedModel: 'community/general' }]);
  });
});
