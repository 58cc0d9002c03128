import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

describe('chatStream({ assemble: false }) (a reader of events keeps no copy of the answer)', () => {
  it('yields every event but keeps no copy of the text for result()', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
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
    const gateway = await emulate();
    const client = clientOn(gateway);
    const stream = await client.chatStream(hi('community/general', 'one two'));
    expect((await stream.result()).text).toBe('Echo: one two');
  });

  it('refuses a non-boolean before sending', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const error = await caught(
      () => client.chatStream(hi(), { assemble: 'no' as unknown as boolean }),
      isGatewayError,
    );
    expect(error).toMatchObject({ code: 'invalid_request_error' });
    expect(emulator.counters.requests.chat).toBe(0);
  });
});
