import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { call, errorBodyOf, userChat } from './helpers';

// A body that parses as JSON but that the chat endpoint refuses itself (a `stream` that is not a
// boolean, no `model`), sent with a stream-only X-Emulator-Fault: the endpoint's own 400 names the
// field, not the fault's misfit (the `stream: "yes"` read as not streamed), as for a body it cannot
// read (fault-header-that-cannot-apply.test.ts).

describe('an X-Emulator-Fault that cannot act, on a body the endpoint refuses', () => {
  it.each([
    ['stream_cut; afterChunks=1', userChat('community/general', 'hi', { stream: 'yes' }), 'stream'],
    ['no_finish', userChat('community/general', 'hi', { stream: 1 }), 'stream'],
    ['truncated_json', { messages: [{ role: 'user', content: 'hi' }], stream: true }, 'model'],
  ])("%s: the endpoint's refusal of %j", async (fault, body, param) => {
    const response = await call(createEmulator(), '/chat/completions', {
      body,
      headers: { 'x-emulator-fault': fault },
    });
    expect(await errorBodyOf(response)).toMatchObject({ status: 400, param });
  });

  it('a body the endpoint takes still gets the misfit', async () => {
    const response = await call(createEmulator(), '/chat/completions', {
      body: userChat('community/general', 'hi', { stream: false }),
      headers: { 'x-emulator-fault': 'stream_cut' },
    });
    expect(await errorBodyOf(response)).toMatchObject({ status: 400, param: 'x-emulator-fault' });
  });
});
