import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../index';

const KEY = 'ig-first-bytes-test-key-0000';
const ask = { model: 'community/general', messages: [{ role: 'user' as const, content: 'hi' }] };

async function streamAnsweredWith(body: string, contentType: string): Promise<unknown> {
  const client = createGatewayClient({
    baseURL: 'https://first-bytes.test/v1',
    apiKey: KEY,
    maxRetries: 0,
    fetch: async () =>
      new Response(body, { status: 200, headers: { 'content-type': contentType } }),
  });
  // (Capabilities given: the stub serves no catalog.)
  return client.chatStream(ask, { capabilities: ['chat', 'streaming'] }).then(
    async (stream) => stream.result(),
    (error: unknown) => error,
  );
}

describe('a successful answer that cannot be a stream', () => {
  it('JSON is invalid_response naming JSON, with the status and body', async () => {
    const error = await streamAnsweredWith('{"choices":[]}', 'application/json');
    expect(error).toMatchObject({ code: 'invalid_response', status: 200, body: '{"choices":[]}' });
    expect((error as Error).message).toContain(
      'Asked for a stream, the gateway answered with JSON',
    );
  });

  it("a JSON error is the server's failure: its words, code, type and raw body", async () => {
    const foreign = `{"error":{"message":"The engine ran out of memory ${KEY}","type":"server_error","code":"oom"}}`;
    const error = await streamAnsweredWith(foreign, 'application/json; charset=utf-8');
    expect(error).toMatchObject({
      code: 'upstream_error',
      message: 'The engine ran out of memory [redacted]',
      type: 'server_error',
      status: 200,
      body: foreign.replace(KEY, '[redacted]'),
      data: { error: { code: 'oom' } },
      isRetryable: false,
    });
    const gateway = '{"error":{"message":"No slot free","type":"capacity","code":"model_busy"}}';
    expect(await streamAnsweredWith(gateway, 'application/json')).toMatchObject({
      code: 'model_busy',
      message: 'No slot free',
      body: gateway,
    });
  });

  it('TGI’s shape gives the same code, words and type as a whole answer with that body', async () => {
    const tgi = '{"error":"Input validation error: `inputs` too long","error_type":"validation"}';
    const streamed = await streamAnsweredWith(tgi, 'application/json');
    const client = createGatewayClient({
      baseURL: 'https://first-bytes.test/v1',
      apiKey: KEY,
      maxRetries: 0,
      fetch: async () =>
        new Response(tgi, { status: 200, headers: { 'content-type': 'application/json' } }),
    });
    const whole = await client.chat(ask, { capabilities: ['chat'] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const read = { code: 'upstream_error', message: 'Input validation error: `inputs` too long' };
    expect(whole).toMatchObject({ ...read, type: 'validation', status: 200, body: tgi });
    expect(streamed).toMatchObject({ ...read, type: 'validation', status: 200, body: tgi });
  });

  it('an HTML page is invalid_response naming the page, not a stream that ended early', async () => {
    const page = `<html><body>Sign in to continue ${KEY}</body></html>`;
    const error = await streamAnsweredWith(page, 'text/html; charset=utf-8');
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
    expect((error as Error).message).toContain(
      'Asked for a stream, the gateway answered with an HTML page (text/html; charset=utf-8)',
    );
    expect((error as { body?: string }).body).toContain('Sign in to continue');
    expect(JSON.stringify(error)).not.toContain(KEY);
  });

  it('a stream labelled text/plain is still read as a stream', async () => {
    const events = [
      'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"ok"}}]}',
      'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
      'data: [DONE]',
    ];
    const result = await streamAnsweredWith(`${events.join('\n\n')}\n\n`, 'text/plain');
    expect(result).toMatchObject({ text: 'ok' });
  });
});

describe('a successful answer labelled JSON or HTML that starts as a stream', () => {
  const events =
    'data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n' +
    'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

  it.each([
    ['application/json', events],
    ['text/html', `\r\n: a comment first\n\n${events}`],
    ['application/json; charset=utf-8', `\uFEFFevent: message\n${events}`],
  ])('%s: read as the stream it is', async (type, body) => {
    expect(await streamAnsweredWith(body, type)).toMatchObject({ text: 'Hi' });
  });

  it('a body of blanks or of words is still not a stream', async () => {
    for (const body of ['   \n', 'Internal Server Error']) {
      expect(await streamAnsweredWith(body, 'application/json')).toMatchObject({
        code: 'invalid_response',
        body,
      });
    }
  });
});
