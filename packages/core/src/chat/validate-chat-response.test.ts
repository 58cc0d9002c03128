import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { hi, withCatalog } from '../../test/helpers';
import { createGatewayClient } from '../client/client';
import { isGatewayError } from '../errors/errors';
import { reportedFailure } from '../http/reported-failure';

/** A client whose chat answers are `body` with status 200 and `type`. */
function answering(body: string, type: string) {
  const fetch = withCatalog(
    async () => new Response(body, { status: 200, headers: { 'content-type': type } }),
    ['community/general'],
  );
  return createGatewayClient({ baseURL: 'https://odd.test/v1', apiKey: 'k', fetch, maxRetries: 0 });
}

describe('reportedFailure', () => {
  it('reads the gateway shape, a model server shape, TGI words and a typed event', () => {
    const gateway = { error: { code: 'model_busy', message: 'busy', type: 't' } };
    expect(reportedFailure(gateway, '')).toEqual({
      code: 'model_busy',
      message: 'busy',
      type: 't',
    });
    expect(reportedFailure({ error: { code: 'nope', message: 'm' } }, '')?.code).toBe(
      'upstream_error',
    );
    expect(reportedFailure({ error: 'oom', error_type: 'generation' }, '')).toEqual({
      code: 'upstream_error',
      message: 'oom',
      type: 'generation',
    });
    // `message` alone is the server's words only in an event typed `error`.
    expect(reportedFailure({ message: 'm' }, '')).toBeUndefined();
    expect(reportedFailure({ message: 'm' }, '', true)?.message).toBe('m');
    expect(reportedFailure(undefined, 'down', true)?.message).toBe('down');
    expect(reportedFailure(undefined, ' ', true)).toBeUndefined();
    expect(reportedFailure({ error: 5 }, '')).toBeUndefined();
  });
});

describe('a 200 JSON answer that is an error object', () => {
  it('is the error it reports (code, words, raw body), not invalid_response', async () => {
    const body = JSON.stringify({
      error: { code: 'provider_request_failed', message: 'provider blew up', type: 'server_error' },
    });
    const client = answering(body, 'application/json');
    const error = await caught(() => client.chat(hi()), isGatewayError);
    expect([error.code, error.message, error.type, error.status, error.body]).toEqual([
      'provider_request_failed',
      'provider blew up',
      'server_error',
      200,
      body,
    ]);
    expect(error.requestedModel).toBe('community/general');
    // As the same object in a stream: a failure inside a 200 answer is not retried (§10.5).
    expect(error.isRetryable).toBe(false);
    const openai = JSON.stringify({ error: { message: 'max_tokens is too large', code: null } });
    const foreign = await caught(
      () => answering(openai, 'application/json').chat(hi()),
      isGatewayError,
    );
    expect([foreign.code, foreign.message]).toEqual(['upstream_error', 'max_tokens is too large']);
    // Without words it stays an unreadable answer.
    const empty = await caught(
      () => answering('{"error":{}}', 'application/json').chat(hi()),
      isGatewayError,
    );
    expect(empty.code).toBe('invalid_response');
  });
});

describe('a stream that reports a failure in a model server shape', () => {
  const start = `data: ${JSON.stringify({
    id: 'c',
    object: 'chat.completion.chunk',
    model: 'community/general',
    choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }],
  })}\n\n`;

  it.each([
    [
      'TGI',
      'data: {"error":"CUDA out of memory","error_type":"generation"}\n\n',
      'CUDA out of memory',
    ],
    [
      'event: error',
      'event: error\ndata: {"message":"Upstream overloaded"}\n\ndata: [DONE]\n\n',
      'Upstream overloaded',
    ],
  ])('%s: its words are the message', async (_name, tail, words) => {
    const client = answering(start + tail, 'text/event-stream');
    const stream = await client.chatStream(hi());
    const error = await caught(() => stream.result(), isGatewayError);
    expect([error.code, error.message, error.status]).toEqual(['upstream_error', words, 200]);
    expect(error.body).toContain(words);
  });
});
