// docs/gateway-protocol.md §5.5 (a stream lost before any content is retried), §10.4
// (`invalid_response`): a 2xx answer to a stream request whose body, read to its end, held no
// line of an event stream (a proxy's "Service under maintenance" as text/plain) is an answer of
// another kind, not a stream that ended early: not retried, its body kept.
import { caught, chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient } from '../../index';

const gateway = await emulate({ hooks: { afterEach, afterAll } });
const { apiKey } = gateway.connection;
const ask = { model: 'community/general', messages: [{ role: 'user' as const, content: 'hi' }] };

/** A client whose every chat is answered 200 with `body` as `type`; `sent` counts them. */
function answeredWith(body: string, type: string | undefined, sent: object[]) {
  const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
  const fetch = chatsAnsweredBy(gateway.connection, (request) => {
    sent.push(request);
    // (Bytes, not a string: a string body would be labelled text/plain by the Response.)
    return new Response(new TextEncoder().encode(body), { status: 200, headers });
  });
  return createGatewayClient({
    ...gateway.connection,
    fetch,
    maxRetries: 2,
    maxErrorBodyBytes: 1000,
  });
}

async function streamed(client: ReturnType<typeof answeredWith>): Promise<unknown> {
  return caught(async () => {
    const stream = await client.chatStream(ask);
    await stream.result();
  });
}

describe('a stream request answered 200 with a body that is no event stream', () => {
  it.each([
    ['text/plain', 'text/plain'],
    ['text/plain; charset=utf-8', 'text/plain; charset=utf-8'],
    [undefined, 'no content type'],
  ])('%s: invalid_response naming the type, with the body, sent once', async (type, named) => {
    const sent: object[] = [];
    const error = await streamed(answeredWith(`Service under maintenance ${apiKey}`, type, sent));
    expect(error).toMatchObject({
      code: 'invalid_response',
      status: 200,
      isRetryable: false,
      body: 'Service under maintenance [redacted]',
    });
    expect((error as Error).message).toBe(
      `Asked for a stream, the gateway answered with a body that is not an event stream (${named})`,
    );
    expect(sent).toHaveLength(1);
  });

  it('a long body is kept up to maxErrorBodyBytes', async () => {
    const sent: object[] = [];
    const client = answeredWith('x'.repeat(3000), 'text/plain', sent);
    const error = (await streamed(client)) as { code: string; body: string };
    expect(error.code).toBe('invalid_response');
    expect(error.body.startsWith('x'.repeat(1000))).toBe(true);
    expect(error.body.length).toBeLessThan(1100);
  });

  it('a stream of comments only that ends is still one ended before any content: retried', async () => {
    const sent: object[] = [];
    const error = await streamed(answeredWith(': keep-alive\n\n', 'text/event-stream', sent));
    expect(error).toMatchObject({ code: 'network_error', isRetryable: true });
    expect(sent).toHaveLength(3);
  });
});
