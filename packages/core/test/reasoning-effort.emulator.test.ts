import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { buildChatRequest } from '../src/chat/build-chat-request';
import { isGatewayError } from '../src/index';
import { hi, recordingBodies as recording } from './helpers';

describe('reasoning effort (docs/gateway-protocol.md §4.1)', () => {
  it('is sent as reasoning_effort, streamed or not', async () => {
    const { client, bodies } = await recording();
    const request = buildChatRequest({ ...hi('community/reasoner'), reasoningEffort: 'low' });
    expect((await client.chat(request)).answer.text).toBe('Echo: hello there');
    await (await client.chatStream(request)).result();
    expect(bodies.map((body) => body.reasoning_effort)).toEqual(['low', 'low']);
  });

  it.each([
    [3, 'number 3'],
    [{ effort: 'low' }, 'an object'],
  ])('refuses %j before sending, naming the field', async (effort, described) => {
    const { client, emulator } = await recording();
    const request = { ...hi(), reasoning_effort: effort as unknown as string };
    for (const call of [() => client.chat(request), () => client.chatStream(request)]) {
      const error = await caught(call, isGatewayError);
      expect(error.code).toBe('invalid_request_error');
      expect(error.field).toBe('reasoning_effort');
      expect(error.message).toBe(
        `reasoning_effort: must be a string such as "low", "medium" or "high", got ${described}`,
      );
    }
    expect(emulator.counters.requests.chat).toBe(0);
  });
});
