import { describe, expect, it } from 'vitest';
import { caught, harness, hi } from './helpers';

describe('chatStream({ assemble: false }) (a reader of events keeps no copy of the answer)', () => {
  it('yields every event but keeps no copy of the text for result()', async () => {
    const { client } = harness();
    const stream = await client.chatStream(hi('community/general', 'one two three four'), {
      assemble: false,
    });
    let text = '';
    for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    expect(text).toBe('Echo: one two three four');
    const result = await stream.result();
    expect(result).toMatchObject({ text: '', finishReason: 'stop' });
  });

  it('assembles by default', async () => {
    const { client } = harness();
    const stream = await client.chatStream(hi('community/general', 'one two'));
    expect((await stream.result()).text).toBe('Echo: one two');
  });

  it('refuses a non-boolean before sending', async () => {
    const { client, emulator } = harness();
    const error = await caught(() =>
      client.chatStream(hi(), { assemble: 'no' as unknown as boolean }),
    );
    expect(error).toMatchObject({ code: 'invalid_request_error' });
    expect(emulator.counters.requests.chat).toBe(0);
  });
});
