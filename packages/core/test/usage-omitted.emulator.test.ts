import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { clientOn, hi } from './helpers';

// Usage is "present when the model server reports it" (docs/gateway-protocol.md §2.6): an answer
// without it is a whole answer, its usage undefined, not an error, whole or streamed (asked for
// with `stream_options.include_usage`, as core does by default, and still not sent).

const omitting = () =>
  emulate({ scenario: { models: { 'community/general': { usage: 'omitted' } } } });

describe('a model server that reports no usage', () => {
  it('chat: the answer is read, its usage undefined', async () => {
    const client = clientOn(await omitting());
    const result = await client.chat(hi());
    expect(result.answer.text).toBe('Echo: hello there');
    expect(result.answer.finishReason).toBe('stop');
    expect(result.answer.usage).toBeUndefined();
    expect(result.response).not.toHaveProperty('usage');
  });

  it('chatStream: the stream ends answered, with no usage event and result().usage undefined', async () => {
    const client = clientOn(await omitting());
    const stream = await client.chatStream(hi());
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).not.toContain('usage');
    const result = await stream.result();
    expect(result.text).toBe('Echo: hello there');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toBeUndefined();
  });
});
