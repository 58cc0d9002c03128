// A steered call that only retried its one model (a 500 retried, no failover, nothing skipped)
// failed as the same call unsteered does: it keeps that failure's own message, not
// "Every model tried failed (N attempts): …" (rv-2a F4). Its route still says it was steered.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatStreamOptions } from '../src/index';
import { isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

const MODEL = 'community/general';
const ended = (code: string) => [{ model: MODEL, outcome: 'ended', code }];

/** The error of one chat call to MODEL answering 500 every time (`maxRetries: 2`: 3 requests). */
async function failedChat(request: ChatRequest, options: ChatStreamOptions = {}) {
  const gateway = await emulate();
  gateway.emulator.injectFault({ fault: 'upstream_text', model: MODEL });
  const client = clientOn(gateway, { maxRetries: 2, circuitBreaker: false });
  const error = await caught(() => client.chat(request, options), isGatewayError);
  const sent = gateway.emulator.counters.requests.chat;
  await gateway.close();
  return { error, sent };
}

describe('a steered call that only retried its one model', () => {
  const schema: ChatRequest = {
    ...hi(MODEL),
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'x',
        schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      },
    },
  };

  it.each([
    // What LangChain's withStructuredOutput sends: steered for its schema alone.
    { label: 'a json_schema', request: schema, options: {} },
    { label: 'a stall timeout', request: hi(MODEL), options: { firstChunkTimeoutMs: 60_000 } },
    { label: 'a hedge', request: hi(MODEL), options: { hedge: { afterMs: 60_000 } } },
    // A list whose first model fails in a way that moves to no other: only it was asked.
    {
      label: 'an unused list',
      request: hi(MODEL),
      options: { fallbackModels: ['community/tools'] },
    },
  ])('keeps the unsteered message: $label', async ({ request, options }) => {
    const plain = await failedChat(hi(MODEL));
    const steered = await failedChat(request, options);
    expect(plain.error.route).toBeUndefined();
    expect(steered.sent).toBe(3);
    expect(steered.error.code).toBe('upstream_error');
    expect(steered.error.status).toBe(500);
    expect(steered.error.message).toBe(plain.error.message);
    expect(steered.error.message).toMatch(/^Gateway answered HTTP 500: /);
    expect(steered.error.route?.hops).toEqual(ended('upstream_error'));
  });

  it('a stream cut after a retried 500 says it was cut, as one cut at its first try', async () => {
    /** The error and text so far of a steered stream cut after 2 events, after `first500`. */
    const cutStream = async (first500: boolean) => {
      const gateway = await emulate();
      const { emulator } = gateway;
      if (first500) emulator.injectFault({ fault: 'upstream_text', model: MODEL, times: 1 });
      emulator.injectFault({ fault: 'stream_cut', model: MODEL, afterChunks: 2 });
      const client = clientOn(gateway, { maxRetries: 2 });
      let text = '';
      const error = await caught(async () => {
        const stream = await client.chatStream(hi(MODEL), { firstChunkTimeoutMs: 60_000 });
        for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
      }, isGatewayError);
      const sent = emulator.counters.requests.chat;
      await gateway.close();
      return { error, text, sent };
    };
    const once = await cutStream(false);
    const retried = await cutStream(true);
    expect(retried.sent).toBe(2);
    expect(retried.text).not.toBe('');
    expect(retried.text).toBe(once.text);
    expect(retried.error.code).toBe('stream_incomplete');
    expect(retried.error.message).toBe(once.error.message);
    expect(retried.error.message).toMatch(/^The connection failed before \[DONE\]/);
    expect(retried.error.route?.hops).toEqual(ended('stream_incomplete'));
  });
});
