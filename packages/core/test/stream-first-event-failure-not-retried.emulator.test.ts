import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src';
import { caught, hi, only, streamedReply, stubbedChatClient } from './helpers';

// docs/gateway-protocol.md §5.3, §5.5, §10.5: a plain (not steered) stream whose first event is a
// failure its code does not retry (`invalid_request_error`, `provider_request_failed`, …) fails
// its attempt, as a whole answer's error object and a steered stream's first event do: the call
// rejects with the typed error (code, status, Retry-After, raw body), sent once, and its
// `response` and `done` events say failed. Content decoded before an error is still handed out
// first. A stub answers the chat requests with the 200 streams; the emulator serves the rest.

const MODEL = 'community/streamer';

const errorEvent = (code: string) =>
  `data: ${JSON.stringify({ error: { code, message: `${code} (in a 200)` } })}\n\n`;
const contentEvent = (text: string) =>
  `data: ${JSON.stringify({ id: 'c1', model: MODEL, choices: [{ index: 0, delta: { content: text } }] })}\n\n`;

/** A client whose chat requests are answered `body` (after a comment) as a 200 stream. */
const clientAnswering = (body: string, headers: Record<string, string> = {}) =>
  stubbedChatClient(
    () =>
      new Response(`: processing\n\n${body}data: [DONE]\n\n`, {
        headers: { 'content-type': 'text/event-stream', ...headers },
      }),
  );

describe("a plain stream whose first event is a failure its code doesn't retry", () => {
  it.each(['invalid_request_error', 'provider_request_failed'])(
    '%s: chatStream rejects with it, sent once; response and done say failed',
    async (code) => {
      const { client, sent, events } = await clientAnswering(errorEvent(code), {
        'retry-after': '3',
      });
      const error = await caught(() => client.chatStream(hi(MODEL)));
      expect(isGatewayError(error)).toBe(true);
      expect(error).toMatchObject({ code, status: 200, isRetryable: false, retryAfterMs: 3000 });
      expect(error.body).toContain(`${code} (in a 200)`);
      expect(error.requestedModel).toBe(MODEL);
      expect(sent).toHaveLength(1);
      expect(only(events, 'response').map(({ ok, code: told }) => ({ ok, code: told }))).toEqual([
        { ok: false, code },
      ]);
      expect(only(events, 'done').map(({ ok }) => ok)).toEqual([false]);
    },
  );
});

describe('a plain stream whose error event follows content', () => {
  it('hands out the content first, then fails with the error (unchanged)', async () => {
    const body = contentEvent('Hel') + errorEvent('invalid_request_error');
    const { client, sent } = await clientAnswering(body);
    const stream = await client.chatStream(hi(MODEL));
    let text = '';
    const error = await caught(async () => {
      for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    });
    expect(text).toBe('Hel');
    expect(error).toMatchObject({ code: 'invalid_request_error', status: 200 });
    expect(sent).toHaveLength(1);
  });

  it('a stream with content and no error still answers (the check reads only its first event)', async () => {
    const finish = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;
    const { client } = await clientAnswering(contentEvent('Hello') + finish);
    const { text } = await streamedReply(client, MODEL);
    expect(text).toBe('Hello');
  });
});
