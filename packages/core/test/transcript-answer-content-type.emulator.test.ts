// docs/gateway-protocol.md §9 (a transcription answers JSON by default, text/plain for
// `response_format: 'text'`): a server that ignores `response_format` is read by the answer's
// content type (rv-svc F3). JSON to a text request: its `text` is the transcript (JSON without
// one is an invalid_response); text/plain to a JSON request: `{ text }` of its body.
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';
import { caught } from './helpers';

/** A gateway whose transcriptions are answered by `answer` (the request reaches the emulator first). */
async function answering(answer: (transcript: string) => Response) {
  const gateway = await emulate();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/audio/transcriptions')) return gateway.fetch(request);
    // The emulator's transcript (in the format asked), answered as this server does.
    const reply = await gateway.fetch(request);
    const body = await reply.text();
    const json = reply.headers.get('content-type')?.includes('json');
    return answer(json ? (JSON.parse(body) as { text: string }).text : body);
  };
  const client = createGatewayClient({ ...gateway.connection, fetch, retryBaseDelayMs: 0 });
  return { client, emulator: gateway.emulator };
}

const jsonOf = (body: unknown) => Response.json(body);
const plain = (text: string) =>
  new Response(text, { headers: { 'content-type': 'text/plain; charset=utf-8' } });

describe('a transcription answered in the other format', () => {
  it("response_format 'text' answered application/json: the transcript is its text", async () => {
    const { client } = await answering((text) => jsonOf({ text, language: 'en', duration: 1 }));
    const transcript = await client.transcribe({
      audio: wavWithSpeech('hello'),
      response_format: 'text',
    });
    expect(transcript).toBe('hello');
  });

  it("response_format 'text' answered JSON without a text: invalid_response", async () => {
    const { client } = await answering(() => jsonOf({ transcript: 'hello' }));
    const error = await caught(() =>
      client.transcribe({ audio: wavWithSpeech('hello'), response_format: 'text' }),
    );
    expect(error.code).toBe('invalid_response');
    expect(error.message).toContain('speech_to_text');
  });

  it("response_format 'text' answered text/plain that looks like JSON: taken as it is", async () => {
    const { client } = await answering(() => plain('{"text":"hello"}'));
    const transcript = await client.transcribe({
      audio: wavWithSpeech('hello'),
      response_format: 'text',
    });
    expect(transcript).toBe('{"text":"hello"}');
  });

  it('a JSON request answered text/plain: its body is the text', async () => {
    const { client } = await answering((text) => plain(text));
    expect(await client.transcribe({ audio: wavWithSpeech('good morning') })).toEqual({
      text: 'good morning',
    });
  });

  it('a JSON request answered text/html is still an invalid_response', async () => {
    const { client } = await answering(
      () => new Response('<p>hello</p>', { headers: { 'content-type': 'text/html' } }),
    );
    const error = await caught(() => client.transcribe({ audio: wavWithSpeech('hello') }));
    expect(error.code).toBe('invalid_response');
  });
});
