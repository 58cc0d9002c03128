// docs/gateway-protocol.md §4.1 (`stream` is the call's to set): `client.chat({ …, stream: true })`
// sent no `stream` and quietly answered whole, `chatStream({ …, stream: false })` streamed anyway.
// Each is refused before anything is sent (`invalid_request_error`, field `stream`), naming the
// other call; the value the call means (`false` to chat, `true` to chatStream) or `null` passes.
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { hi, recordingBodies } from './helpers';

/** `hi()`'s request with `stream` set past its type (JavaScript callers pass anything). */
const withStream = (stream: unknown) => ({ ...hi(), stream }) as ReturnType<typeof hi>;

describe('a stream flag the call would not honour', () => {
  it('chat({ stream: true }) is refused, naming chatStream; nothing is sent', async () => {
    const { client, bodies } = await recordingBodies();
    const error = await caught(() => client.chat(withStream(true)), isGatewayError);
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'stream' });
    expect(error.message).toContain('`stream: true` in the chat request');
    expect(error.message).toContain('client.chatStream(request)');
    expect(bodies).toEqual([]);
  });

  it('chatStream({ stream: false }) is refused, naming chat; nothing is sent', async () => {
    const { client, bodies } = await recordingBodies();
    const error = await caught(() => client.chatStream(withStream(false)), isGatewayError);
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'stream' });
    expect(error.message).toContain('`stream: false` in the chatStream request');
    expect(error.message).toContain('client.chat(request)');
    expect(bodies).toEqual([]);
  });

  it('a stream flag that is no boolean is refused by both calls', async () => {
    const { client, bodies } = await recordingBodies();
    for (const run of [
      () => client.chat(withStream('true')),
      () => client.chatStream(withStream(1)),
    ]) {
      const error = await caught(run, isGatewayError);
      expect(error).toMatchObject({ code: 'invalid_request_error', field: 'stream' });
    }
    expect(bodies).toEqual([]);
  });

  it("the call's own value, or null, is taken", async () => {
    const { client, bodies } = await recordingBodies();
    expect((await client.chat(withStream(false))).answer.text).toBe('Echo: hello there');
    expect((await client.chat(withStream(null))).answer.text).toBe('Echo: hello there');
    const stream = await client.chatStream(withStream(true));
    expect((await stream.result()).text).toBe('Echo: hello there');
    const sent = bodies.map((body) => body.stream);
    expect(sent).toEqual([undefined, undefined, true]);
  });
});
