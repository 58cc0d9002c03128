import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClient, GatewayClientOptions } from '../src';
import { caught, hi, oneSlotClient, streamedReply } from './helpers';

// docs/gateway-protocol.md §5.3, §10.5: a gateway error object a 200 answers before any content
// (a whole body, a stream's first event, the catalog's list) is retried as the same code answered
// as a status is: a retryable code is sent again (a steered call moves on), a non-retryable one
// fails at once. The slot of each failed attempt comes back: the client's one slot serves a call
// after it. The emulator answers; a stub answers the first request(s) of a kind with the error.
const MODEL = 'community/streamer';
const OTHER = 'community/tools';
const capabilities = ['chat', 'streaming'];
const json = { 'content-type': 'application/json' };
const errorObject = (code: string) =>
  JSON.stringify({ error: { code, message: `${code} (in a 200)` } });
const busyWhole = () => new Response(errorObject('model_busy'), { headers: json });
const busyStream = () =>
  new Response(`: processing\n\ndata: ${errorObject('model_busy')}\n\n`, {
    headers: { 'content-type': 'text/event-stream' },
  });

type Stub = (url: URL, init: RequestInit | undefined) => Response | undefined;

/** A client whose requests `stub` answers where it returns a response, the emulator elsewhere. */
async function clientWith(stub: Stub, options: GatewayClientOptions = {}) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const seen: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input));
    const body =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as { model?: string }) : {};
    seen.push(`${init?.method ?? 'GET'} ${url.pathname}${body.model ? ` ${body.model}` : ''}`);
    return stub(url, init) ?? gatewayFetch(input, init);
  };
  const client = oneSlotClient(gateway, fetch, options);
  return { client, seen };
}

/** The first `count` requests of `method` answered by `answer`. */
function first(count: number, method: string, answer: () => Response): Stub {
  let left = count;
  return (_, init) => {
    if ((init?.method ?? 'GET') !== method || left === 0) return undefined;
    left--;
    return answer();
  };
}

/** The client's one slot came back: another call is answered (a leaked slot: it times out). */
async function slotFree(client: GatewayClient) {
  const again = await client.chat(hi(MODEL), { capabilities, maxRetries: 0 });
  expect(again.answer.text).not.toBe('');
}

const streamedText = (client: GatewayClient, options = {}) => streamedReply(client, MODEL, options);

describe('a gateway error object in a 200 before any content', () => {
  it('chat: model_busy in the whole answer is retried; the second attempt answers', async () => {
    const { client, seen } = await clientWith(first(1, 'POST', busyWhole));
    const result = await client.chat(hi(MODEL), { capabilities });
    expect(result.answer.text).not.toBe('');
    expect(seen.filter((s) => s.startsWith('POST'))).toHaveLength(2);
    await slotFree(client);
  });

  it('chatStream: a first event that is model_busy is retried; the answer is streamed', async () => {
    const { client, seen } = await clientWith(first(1, 'POST', busyStream));
    const { text, result } = await streamedText(client, { capabilities });
    expect(text).not.toBe('');
    expect(result.text).toBe(text);
    expect(seen.filter((s) => s.startsWith('POST'))).toHaveLength(2);
    await slotFree(client);
  });

  it.each([
    ['chat', busyWhole],
    ['chatStream', busyStream],
  ])(
    '%s with fallbackModels: model_busy on the first model moves to the next',
    async (name, busy) => {
      let left = 1;
      // (Its first request to the first model: the call after it, to the same model, is answered.)
      const stub: Stub = (_url, init) =>
        init?.method === 'POST' && String(init.body).includes(`"${MODEL}"`) && left-- > 0
          ? busy()
          : undefined;
      const { client, seen } = await clientWith(stub);
      const options = { fallbackModels: [OTHER] };
      const served =
        name === 'chat'
          ? (await client.chat(hi(MODEL), options)).servedModel
          : (await streamedText(client, options)).result.model;
      expect(seen.filter((s) => s.startsWith('POST'))).toEqual([
        `POST /v1/chat/completions ${MODEL}`,
        `POST /v1/chat/completions ${OTHER}`,
      ]);
      expect(served).toBe(OTHER);
      await slotFree(client);
    },
  );

  it.each([
    ['chat', () => new Response(errorObject('invalid_request_error'), { headers: json })],
    [
      'chatStream',
      () =>
        new Response(`data: ${errorObject('invalid_request_error')}\n\n`, {
          headers: { 'content-type': 'text/event-stream' },
        }),
    ],
  ])(
    '%s: a non-retryable code (invalid_request_error) fails at once, sent once',
    async (name, bad) => {
      const { client, seen } = await clientWith(first(1, 'POST', bad));
      const call = () =>
        name === 'chat'
          ? client.chat(hi(MODEL), { capabilities })
          : streamedText(client, { capabilities });
      const error = await caught(call);
      expect(error).toMatchObject({
        code: 'invalid_request_error',
        status: 200,
        isRetryable: false,
      });
      expect(seen.filter((s) => s.startsWith('POST'))).toHaveLength(1);
      await slotFree(client);
    },
  );

  it("the gate's catalog read (GET /models) answered 200 model_busy is retried, as a 503 is", async () => {
    const { client, seen } = await clientWith(first(1, 'GET', busyWhole));
    const result = await client.chat(hi(MODEL));
    expect(result.answer.text).not.toBe('');
    expect(seen.filter((s) => s === 'GET /v1/models')).toHaveLength(2);
    await slotFree(client);
  });
});
