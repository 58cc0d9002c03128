import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src';
import { caught, hi, streamedReply } from './helpers';

// docs/gateway-protocol.md §5.3, §10.2, §10.3: OpenRouter (and Google) send `error.code` as a
// number, an HTTP status (`{"error": {"code": 429, "message": …}}`) — in a 200's body or a
// stream's error event. Core reads such a number as that status's gateway code (429 a busy model,
// retried with its Retry-After; 502/503 retried), the number kept in the raw body; another number
// (500, and 400/401/403/404: the model server's own failure, spec §7 rule 2) stays `upstream_error`. An error answer's own HTTP status is
// read as before. A stub answers the first chat requests; the emulator the rest.

const MODEL = 'community/streamer';
const numeric = (code: number) =>
  JSON.stringify({ error: { code, message: `numeric ${code}`, metadata: { provider: 'p' } } });

type Answer = () => Response;
const json =
  (code: number, status = 200, headers: Record<string, string> = {}): Answer =>
  () =>
    new Response(numeric(code), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
const sse =
  (code: number, headers: Record<string, string> = {}): Answer =>
  () =>
    new Response(`data: ${numeric(code)}\n\ndata: [DONE]\n\n`, {
      headers: { 'content-type': 'text/event-stream', ...headers },
    });

/** A client whose first `count` chat requests `answer` answers. */
async function clientAnswering(answer: Answer, count = 1, maxRetries = 2) {
  const gateway = await emulate();
  let left = count;
  const sent: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (init?.method !== 'POST') return gateway.connection.fetch(input, init);
    sent.push(String(input));
    return left-- > 0 ? answer() : gateway.connection.fetch(input, init);
  };
  const client = createGatewayClient({
    ...gateway.connection,
    fetch,
    maxRetries,
    retryBaseDelayMs: 0,
    circuitBreaker: false,
  });
  return { client, sent };
}

describe('a numeric error.code in a whole 200 answer (client.chat)', () => {
  it.each([429, 502, 503])('%i is retried as that status would be', async (code) => {
    const { client, sent } = await clientAnswering(json(code));
    const result = await client.chat(hi(MODEL));
    expect(result.answer.text).not.toBe('');
    expect(sent).toHaveLength(2);
  });

  it('429 is model_busy, its Retry-After read, the number kept in the raw body', async () => {
    const { client, sent } = await clientAnswering(json(429, 200, { 'retry-after': '7' }), 1, 0);
    const error = await caught(() => client.chat(hi(MODEL)));
    expect(error).toMatchObject({
      code: 'model_busy',
      status: 200,
      retryAfterMs: 7000,
      message: 'numeric 429',
    });
    expect(error.body).toContain('"code":429');
    expect(sent).toHaveLength(1);
  });

  it("400 is the model server's own failure: upstream_error, not retried", async () => {
    const { client, sent } = await clientAnswering(json(400), 3);
    const error = await caught(() => client.chat(hi(MODEL)));
    expect(error).toMatchObject({ code: 'upstream_error', isRetryable: false });
    expect(error.body).toContain('"code":400');
    expect(sent).toHaveLength(1);
  });

  it('a number with no gateway code (500) stays upstream_error', async () => {
    const { client } = await clientAnswering(json(500), 3);
    const error = await caught(() => client.chat(hi(MODEL)));
    expect(error).toMatchObject({ code: 'upstream_error', message: 'numeric 500' });
  });
});

describe("a numeric error.code in a stream's first event (client.chatStream)", () => {
  it.each([429, 502, 503])('%i is retried as that status would be', async (code) => {
    const { client, sent } = await clientAnswering(sse(code));
    const { text } = await streamedReply(client, MODEL);
    expect(text).not.toBe('');
    expect(sent).toHaveLength(2);
  });

  it("400 is the model server's own: upstream_error, not retried, the number in its raw body", async () => {
    const { client, sent } = await clientAnswering(sse(400), 3);
    const error = await caught(() => streamedReply(client, MODEL));
    expect(error).toMatchObject({ code: 'upstream_error', status: 200 });
    expect(error.body).toContain('"code":400');
    expect(sent).toHaveLength(1);
  });
});

describe('a numeric error.code in an error event after content', () => {
  it("is that status's code, never retried: the content was handed out first", async () => {
    const content = JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hel' } }] });
    const answer = () =>
      new Response(`data: ${content}\n\ndata: ${numeric(502)}\n\n`, {
        headers: { 'content-type': 'text/event-stream' },
      });
    const { client, sent } = await clientAnswering(answer, 3);
    const stream = await client.chatStream(hi(MODEL));
    let text = '';
    const error = await caught(async () => {
      for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    });
    expect(text).toBe('Hel');
    expect(error).toMatchObject({ code: 'all_providers_failed', status: 200, isRetryable: false });
    expect(sent).toHaveLength(1);
  });
});

describe('a numeric error.code in an error answer', () => {
  it('changes nothing: its HTTP status is read (429: upstream_error, retryable)', async () => {
    const { client } = await clientAnswering(json(429, 429, { 'retry-after': '0' }), 1, 0);
    const error = await caught(() => client.chat(hi(MODEL)));
    expect(error).toMatchObject({ code: 'upstream_error', status: 429, isRetryable: true });
    expect(error.body).toContain('"code":429');
  });
});
