import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { call, errorBodyOf, userChat } from './helpers';

// An X-Emulator-Fault that cannot act on its request (a stream fault on an answer sent whole, a
// chat-only fault on a service, truncated_json on a stream) was dropped, silently: 200 and a
// normal answer, so a test believing it injected a fault passed without one. Now a 400.

const chatBody = (stream: boolean) => userChat('community/general', 'hi', { stream });

describe('an X-Emulator-Fault that cannot act on the request', () => {
  it.each([
    [
      'stream_cut',
      '/chat/completions',
      chatBody(false),
      /stream_cut acts only on streamed chat requests \(stream: true\)/,
    ],
    ['stream_error', '/chat/completions', chatBody(false), /stream_error acts only on streamed/],
    ['no_finish', '/chat/completions', chatBody(false), /no_finish acts only on streamed/],
    [
      'stream_cut',
      '/embeddings',
      { input: 'x', model: 'all-minilm-l6-v2' },
      /stream_cut acts only on streamed/,
    ],
    [
      'stall_first_chunk; ms=5000',
      '/translations',
      { input: 'x', target_language: 'de' },
      /stall_first_chunk acts only on chat requests .* not on translations/,
    ],
    [
      'model_offline',
      '/embeddings',
      { input: 'x', model: 'all-minilm-l6-v2' },
      /model_offline acts only on chat requests/,
    ],
    [
      'truncated_json',
      '/chat/completions',
      chatBody(true),
      /truncated_json acts only on answers sent whole/,
    ],
  ])('is refused with 400 naming x-emulator-fault: %s on %s', async (fault, path, body, why) => {
    const response = await call(createEmulator(), path, {
      body,
      headers: { 'x-emulator-fault': fault },
    });
    const error = await errorBodyOf(response);
    expect(error).toMatchObject({ status: 400, param: 'x-emulator-fault' });
    expect(error.message).toMatch(why);
  });

  it("leaves a body the endpoint cannot read to the endpoint's own refusal (rv-2b F2)", async () => {
    const response = await call(createEmulator(), '/chat/completions', {
      body: chatBody(true),
      headers: { 'x-emulator-fault': 'stream_cut; afterChunks=1', 'content-type': 'text/plain' },
    });
    const error = await errorBodyOf(response);
    expect(error).toMatchObject({ status: 400 });
    expect(error.message).toMatch(/Content-Type 'text\/plain' is not accepted/);
  });

  it('still acts where it can', async () => {
    const emulator = createEmulator();
    const headers = { 'x-emulator-fault': 'no_finish' };
    const streamed = await call(emulator, '/chat/completions', { body: chatBody(true), headers });
    expect(streamed.status).toBe(200);
    expect(await streamed.text()).not.toMatch(/"finish_reason":"stop"/);
    const cut = await call(emulator, '/models', {
      headers: { 'x-emulator-fault': 'truncated_json' },
    });
    expect(cut.status).toBe(200);
    await expect(cut.json()).rejects.toThrow(); // cut half-way
  });
});
