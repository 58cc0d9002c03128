// docs/gateway-protocol.md §5.3, §10.4: the APICallError of a 200 answer that cannot be used — a
// body that is not JSON, an error body instead of an answer, an error event in the stream —
// carries that answer's headers (`responseHeaders`, its `x-request-id`), as an error answer's
// does; they used to be missing.
import { APICallError } from '@ai-sdk/provider';
import { failingAfterContentSse } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { generateError, streamErrors } from './failed-calls';
import { providersOnMsw } from './providers';

const { gateway } = await providersOnMsw({});
const HEADERS = { 'content-type': 'application/json', 'x-request-id': 'req-1' };

/** The emulator for everything, but `answer` for the chat completions. */
function answering(answer: () => Response): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    return request.url.endsWith('/chat/completions') ? answer() : globalThis.fetch(request);
  };
}

describe("a 200 answer that cannot be used: the APICallError has the answer's headers", () => {
  it.each([
    ['a body that is not JSON', '{"id": "c1", "choi'],
    ['an error body', JSON.stringify({ error: { message: 'overloaded', code: 'model_busy' } })],
  ])('generateText: %s', async (_, body) => {
    const fetch = answering(() => new Response(body, { headers: HEADERS }));
    const error = await generateError(gateway({ fetch })('community/general'));
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 200, responseHeaders: HEADERS });
  });

  it('streamText: an error event after content', async () => {
    const sse = failingAfterContentSse('community/general', {
      message: 'upstream overloaded',
      code: 'provider_request_failed',
    });
    const headers = { ...HEADERS, 'content-type': 'text/event-stream' };
    const fetch = answering(() => new Response(sse, { headers }));
    const errors = await streamErrors(gateway({ fetch })('community/general'));
    expect(errors).toHaveLength(1);
    expect(APICallError.isInstance(errors[0])).toBe(true);
    expect(errors[0]).toMatchObject({ statusCode: 200, responseHeaders: headers });
  });
});
