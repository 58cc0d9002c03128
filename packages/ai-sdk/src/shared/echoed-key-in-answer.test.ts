// docs/gateway-protocol.md §2.4 (response headers), §10.4 (`invalid_response`), through ai's own
// entry points: a key a proxy echoes in a successful answer reaches no `response` unredacted, and
// a 200 text/plain body to a stream request is an `invalid_response` with its body, not retried.
import { chatsAnsweredBy, emulate, keyEchoingFetch } from '@infergate/emulator/testing';
import { APICallError, embedMany, generateText, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../provider/gateway-provider';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const ECHO = 'x-debug-authorization';

const echoingFetch = keyEchoingFetch(emulated.connection, ECHO);

const gateway = createGateway({ ...emulated.connection, fetch: echoingFetch });

describe('a successful answer that echoes the API key', () => {
  it('generateText: response.headers and response.body hold it redacted', async () => {
    const { response } = await generateText({
      model: gateway('community/general'),
      prompt: 'hi',
      include: { responseBody: true },
    });
    expect(response.headers?.[ECHO]).toBe('Bearer [redacted]');
    expect(response.body).toMatchObject({ debug: 'Bearer [redacted]' });
  });

  it('streamText: response.headers hold it redacted', async () => {
    const stream = streamText({ model: gateway('community/general'), prompt: 'hi' });
    await stream.consumeStream();
    expect((await stream.response).headers?.[ECHO]).toBe('Bearer [redacted]');
  });

  it('embedMany: responses[0].headers and .body hold it redacted', async () => {
    const { responses } = await embedMany({
      model: gateway.embeddingModel('multilingual-e5-base'),
      values: ['a'],
    });
    expect(responses?.[0]?.headers?.[ECHO]).toBe('Bearer [redacted]');
    expect(responses?.[0]?.body).toMatchObject({ debug: 'Bearer [redacted]' });
  });
});

describe('streamText answered 200 text/plain, no event stream', () => {
  it('is invalid_response with the body as responseBody, sent once', async () => {
    const sent: object[] = [];
    const fetch = chatsAnsweredBy(emulated.connection, (body) => {
      sent.push(body);
      return new Response('Service under maintenance', {
        headers: { 'content-type': 'text/plain' },
      });
    });
    const model = createGateway({ ...emulated.connection, fetch })('community/general');
    const errors: unknown[] = [];
    const stream = streamText({ model, prompt: 'hi', onError: ({ error }) => errors.push(error) });
    await stream.consumeStream();
    expect(errors).toHaveLength(1);
    const error = errors[0];
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      responseBody: 'Service under maintenance',
      isRetryable: false,
      statusCode: 200,
      data: { code: 'invalid_response' },
    });
    expect(sent).toHaveLength(1);
  });
});
