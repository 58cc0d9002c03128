// docs/gateway-protocol.md §5.5 (a stream lost before any content is retried), §4.7 (a stream may
// fail over until its first content), §10.4 (`invalid_response`): a 2xx answer to a stream request
// whose body, read to its end, held no line of an event stream (a proxy's "Service under
// maintenance" as text/plain) is an answer of another kind, not a stream that ended early: not
// retried, its body kept — for a steered stream too (fallbackModels, firstChunkTimeoutMs, hedge):
// no other model tried, as an HTML page ends the call; and a body that runs past what is held
// before content (1 MiB) without one is refused the same way, its body kept up to
// maxErrorBodyBytes.
import { caught, chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type ChatStreamOptions, createGatewayClient } from '../../index';

const gateway = await emulate({ hooks: { afterEach, afterAll } });
const { apiKey } = gateway.connection;
const ask = { model: 'community/general', messages: [{ role: 'user' as const, content: 'hi' }] };

/** A client whose every chat is answered 200 with `body` as `type`; `sent` names each model asked. */
function answeredWith(body: string, type: string | undefined, sent: string[]) {
  const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
  const fetch = chatsAnsweredBy(gateway.connection, (request) => {
    sent.push(request.model);
    // (Bytes, not a string: a string body would be labelled text/plain by the Response.)
    return new Response(new TextEncoder().encode(body), { status: 200, headers });
  });
  return createGatewayClient({
    ...gateway.connection,
    fetch,
    maxRetries: 2,
    maxErrorBodyBytes: 1000,
    // (A retry's wait kept short: what is asserted is the attempts, not their pace.)
    retryBaseDelayMs: 0,
  });
}

async function streamed(
  client: ReturnType<typeof answeredWith>,
  options?: ChatStreamOptions,
): Promise<unknown> {
  return caught(async () => {
    const stream = await client.chatStream(ask, options);
    await stream.result();
  });
}

/** The maintenance page refused as `invalid_response` naming `type`, its body kept, key redacted. */
function expectPageRefused(error: unknown, named: string) {
  expect(error).toMatchObject({
    code: 'invalid_response',
    status: 200,
    isRetryable: false,
    body: 'Service under maintenance [redacted]',
  });
  expect((error as Error).message).toBe(
    `Asked for a stream, the gateway answered with a body that is not an event stream (${named})`,
  );
}

describe('a stream request answered 200 with a body that is no event stream', () => {
  it.each([
    ['text/plain', 'text/plain'],
    ['text/plain; charset=utf-8', 'text/plain; charset=utf-8'],
    [undefined, 'no content type'],
  ])('%s: invalid_response naming the type, with the body, sent once', async (type, named) => {
    const sent: string[] = [];
    const error = await streamed(answeredWith(`Service under maintenance ${apiKey}`, type, sent));
    expectPageRefused(error, named);
    expect(sent).toHaveLength(1);
  });

  it('a long body is kept up to maxErrorBodyBytes', async () => {
    const sent: string[] = [];
    const client = answeredWith('x'.repeat(3000), 'text/plain', sent);
    const error = (await streamed(client)) as { code: string; body: string };
    expect(error.code).toBe('invalid_response');
    expect(error.body.startsWith('x'.repeat(1000))).toBe(true);
    expect(error.body.length).toBeLessThan(1100);
  });

  it('a stream of comments only that ends is still one ended before any content: retried', async () => {
    const sent: string[] = [];
    const error = await streamed(answeredWith(': keep-alive\n\n', 'text/event-stream', sent));
    expect(error).toMatchObject({ code: 'network_error', isRetryable: true });
    expect(sent).toHaveLength(3);
  });
});

const steerings: [string, ChatStreamOptions][] = [
  ['fallbackModels', { fallbackModels: ['community/streamer'] }],
  ['firstChunkTimeoutMs', { firstChunkTimeoutMs: 60_000 }],
  ['hedge', { hedge: { afterMs: 60_000 } }],
];

describe('a steered stream answered 200 with a body that is no event stream', () => {
  it.each(steerings)(
    '%s: invalid_response with the body, sent once, no failover',
    async (_, options) => {
      const sent: string[] = [];
      const client = answeredWith(`Service under maintenance ${apiKey}`, 'text/plain', sent);
      const error = await streamed(client, options);
      expectPageRefused(error, 'text/plain');
      expect(sent).toEqual(['community/general']);
    },
  );

  it.each(steerings)(
    '%s: comments only that end are still a retried network_error',
    async (_, options) => {
      const sent: string[] = [];
      const client = answeredWith(': keep-alive\n\n', 'text/event-stream', sent);
      const error = await streamed(client, options);
      expect(error).toMatchObject({ code: 'network_error', isRetryable: true });
      expect(sent.length).toBeGreaterThan(1);
    },
  );
});

const plainAndSteered: [string, ChatStreamOptions | undefined][] = [
  ['plain', undefined],
  ...steerings,
];

describe('a stream answered 200 with a body over 1 MiB that is no event stream', () => {
  it.each(plainAndSteered)('%s: invalid_response, its body cut, sent once', async (_, options) => {
    const sent: string[] = [];
    // (Lines, labelled an event stream: a steered read counts them against its bound.)
    const page = 'Service under maintenance\n'.repeat(80_000);
    const client = answeredWith(page, 'text/event-stream', sent);
    const error = (await streamed(client, options)) as {
      code: string;
      body: string;
      isRetryable: boolean;
    };
    expect(error).toMatchObject({ code: 'invalid_response', isRetryable: false });
    expect(error.body.startsWith(page.slice(0, 1000))).toBe(true);
    expect(error.body.length).toBeLessThan(1100);
    expect(sent).toHaveLength(1);
  });

  it('a stream whose first event comes past 1 MiB of comments is still read', async () => {
    const sent: string[] = [];
    const chunk = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: ask.model, choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
    const client = answeredWith(
      `${': pad\n'.repeat(200_000)}\n${chunk}`,
      'text/event-stream',
      sent,
    );
    const stream = await client.chatStream(ask);
    expect((await stream.result()).text).toBe('hi');
  });
});
