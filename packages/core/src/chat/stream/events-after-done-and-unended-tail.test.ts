// docs/gateway-protocol.md §5.2: events a server sends after `[DONE]` (its usage, even its
// finish) are read until the body ends, as @ai-sdk/openai-compatible reads them; and the last
// event of a body that ends without its blank line is read when it is one whole JSON object, as
// openai-node (ChatOpenAI) reads it. An unended tail that is not whole JSON stays a cut.
import { chatChunkJson } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type GatewayError, isGatewayError } from '../../errors/errors';
import type { ChatStreamEvent } from '../../protocol/chat-result-types';
import { ChatStreamDecoder } from './chat-stream-decoder';

const chunk = (choices: object[], extra: Record<string, unknown> = {}) =>
  chatChunkJson('pool-a/m', { choices, ...extra });
const event = (data: string) => `data: ${data}\n\n`;

const ROLE = event(chunk([{ index: 0, delta: { role: 'assistant', content: '' } }]));
const HELLO = event(chunk([{ index: 0, delta: { content: 'Hello' } }]));
const FINISH_DATA = chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
const FINISH = event(FINISH_DATA);
const USAGE_DATA = chunk([], {
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});
const USAGE = event(USAGE_DATA);
const DONE = 'data: [DONE]\n\n';

/** Feeds `reads` one at a time, then ends the input: the events, and the error `end` threw. */
function decoded(reads: readonly string[]) {
  const decoder = new ChatStreamDecoder();
  const events: ChatStreamEvent[] = [];
  let error: GatewayError | undefined;
  try {
    for (const read of reads) decoder.feed(read);
    decoder.end();
  } catch (thrown) {
    if (!isGatewayError(thrown)) throw thrown;
    error = thrown;
  }
  for (let e = decoder.take(); e !== undefined; e = decoder.take()) events.push(e);
  return { decoder, events, error, types: events.map((e) => e.type) };
}

describe('events after [DONE]', () => {
  it('a usage chunk after [DONE] is read: its event, and the answer has it', () => {
    const { decoder, types, error } = decoded([ROLE, HELLO, FINISH, DONE, USAGE]);
    expect(error).toBeUndefined();
    expect(types).toEqual(['metadata', 'role', 'text-delta', 'finish', 'usage']);
    expect(decoder.result().usage).toEqual({
      prompt_tokens: 3,
      completion_tokens: 1,
      total_tokens: 4,
    });
  });

  it('the same in one read: [DONE] and the usage after it', () => {
    const { decoder, error } = decoded([ROLE + HELLO + FINISH + DONE + USAGE]);
    expect(error).toBeUndefined();
    expect(decoder.result().usage?.total_tokens).toBe(4);
  });

  it('a finish (with its usage) after [DONE] makes the answer whole', () => {
    const late = event(
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }], {
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      }),
    );
    const { decoder, types, error } = decoded([ROLE, HELLO, DONE, late]);
    expect(error).toBeUndefined();
    expect(types.slice(-2)).toEqual(['finish', 'usage']);
    expect(decoder.result()).toMatchObject({ text: 'Hello', finishReason: 'stop' });
  });

  it('[DONE] without any finish_reason, none after it: stream_incomplete at the end', () => {
    const { error, decoder } = decoded([ROLE, HELLO, DONE]);
    expect(decoder.done).toBe(true);
    expect(error?.code).toBe('stream_incomplete');
    expect(error?.message).toContain('sent [DONE]');
  });

  it('after [DONE] and the finish, what cannot be read is dropped, not a failure', () => {
    const typedError = 'event: error\ndata: {"message":"late"}\n\n';
    const reads = [ROLE, HELLO, FINISH, DONE, event('{garbage'), typedError, USAGE];
    const { decoder, error } = decoded(reads);
    expect(error).toBeUndefined();
    expect(decoder.result()).toMatchObject({ text: 'Hello', usage: { total_tokens: 4 } });
  });

  it('after [DONE] without a finish, an error event is the failure', () => {
    const { error } = decoded([ROLE, HELLO, DONE, event('{"error":{"message":"boom"}}')]);
    expect(error?.message).toBe('boom');
  });
});

describe('the last event without its blank line', () => {
  it.each([
    ['no line end', ''],
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('the finish chunk (%s) is read: the answer is whole', (_, end) => {
    const { decoder, error } = decoded([ROLE, HELLO, `data: ${FINISH_DATA}${end}`]);
    expect(error).toBeUndefined();
    expect(decoder.result()).toMatchObject({ text: 'Hello', finishReason: 'stop' });
  });

  it('a usage-only last chunk is read: the answer has its usage', () => {
    const { decoder, error, types } = decoded([ROLE, HELLO, FINISH, `data: ${USAGE_DATA}`]);
    expect(error).toBeUndefined();
    expect(types.at(-1)).toBe('usage');
    expect(decoder.result().usage?.total_tokens).toBe(4);
  });

  it('the tail is read whatever the reads it came in', () => {
    const tail = `data: ${FINISH_DATA}`;
    const { decoder, error } = decoded([ROLE, HELLO, tail.slice(0, 20), tail.slice(20)]);
    expect(error).toBeUndefined();
    expect(decoder.result().finishReason).toBe('stop');
  });

  it('a tail typed `event: error` is that failure', () => {
    const { error } = decoded([ROLE, HELLO, 'event: error\ndata: {"message":"overloaded"}']);
    expect(error?.message).toBe('overloaded');
  });

  it('a tail cut inside its JSON stays a cut: stream_incomplete, its characters dropped', () => {
    const cut = `data: ${FINISH_DATA.slice(0, -5)}`;
    const { decoder, error } = decoded([ROLE, HELLO, cut]);
    expect(error?.code).toBe('stream_incomplete');
    expect(error?.message).toContain(`${cut.length} characters in an event no blank line ended`);
    expect(decoder.result().finishReason).toBeNull();
  });

  it('a tail that is JSON but not an object is dropped too', () => {
    const { error } = decoded([ROLE, HELLO, 'data: [1, 2]']);
    expect(error?.code).toBe('stream_incomplete');
  });
});
