// docs/gateway-protocol.md §4.1 (fields not listed reach the model server unchanged): a stream's
// own call option (`streamUsage`, `assemble`, `rawChunks`, `onHeaders`) given in `chat`'s request
// — `client.chat({ model, messages, streamUsage: false })` — used to be sent to the gateway as an
// unknown field, doing nothing (`chat` does not stream). Refused before anything is sent, naming
// the field and `chatStream`'s second argument; a request with none of them is sent as before.
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { CALL_KEYS } from '../src/call/call-options';
import { isGatewayError } from '../src/index';
import { hi, recordingBodies, totalRequests } from './helpers';

/** `chatStream`'s own options, read from the declared tables. */
const STREAM_ONLY = CALL_KEYS.chatStream.filter((key) => !CALL_KEYS.chat.includes(key));

/** A value of each option's own kind, so that only its place is wrong. */
const VALUES: Record<string, unknown> = {
  assemble: false,
  streamUsage: false,
  rawChunks: true,
  onHeaders: () => {},
};

describe("chatStream's own call options in chat's request", () => {
  it('are the four stream flags', () => {
    expect([...STREAM_ONLY].sort()).toEqual(['assemble', 'onHeaders', 'rawChunks', 'streamUsage']);
  });

  it.each(STREAM_ONLY)('chat({ ...request, %s }) is refused, nothing sent', async (key) => {
    const { gateway, client, bodies } = await recordingBodies();
    const error = await caught(() => client.chat({ ...hi(), [key]: VALUES[key] }), isGatewayError);
    expect(error).toMatchObject({ code: 'invalid_request_error', field: key });
    expect(error.message).toContain(
      `\`${key}\` in the chat request is a call option of chatStream`,
    );
    expect(error.message).toContain('second argument');
    expect(error.message).toContain(`client.chatStream(request, { ${key} })`);
    expect(bodies).toEqual([]);
    expect(totalRequests(gateway.emulator)).toBe(0);
    await gateway.close();
  });

  it('an unset one is not sent and not refused; the chat answers', async () => {
    const { gateway, client, bodies } = await recordingBodies();
    const result = await client.chat({ ...hi(), streamUsage: undefined });
    expect(result.servedModel).toBe('community/general');
    expect(bodies.at(-1)).not.toHaveProperty('streamUsage');
    await gateway.close();
  });
});
