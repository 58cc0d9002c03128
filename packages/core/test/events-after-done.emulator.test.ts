import { caught } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import { content, DONE, FINISH, fedChatBody, MODEL, THE_USAGE, USAGE } from './fed-chat-body';
import { driveClock, settledAfter } from './helpers';

// docs/gateway-protocol.md §5.2, core README (a stream's end): what a server sends after
// `data: [DONE]` before its body ends (its usage, even its finish) is read, as
// @ai-sdk/openai-compatible reads it; a body kept open after `[DONE]` is read on for a cut
// request's grace (CUT_REQUEST_GRACE_MS) at most. The last event of a body that ends without its
// blank line is read when it is one whole JSON object (openai-node reads it).

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);
const FINISH_WITH_USAGE = bytes(
  `data: ${JSON.stringify({
    id: 'c1',
    model: MODEL,
    choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
  })}\n\n`,
);
/** `chunk` as its event without the blank line that ends it (and without any line end). */
const unended = (chunk: Uint8Array) => new TextDecoder().decode(chunk).trimEnd();

afterEach(() => {
  vi.useRealTimers();
});

describe('events after [DONE], the body ending', () => {
  it('the usage after [DONE] is the answer’s, and the done event’s', async () => {
    const fed = await fedChatBody();
    fed.feed(FINISH, DONE, USAGE);
    fed.end();
    const types: string[] = [];
    for await (const event of fed.stream) types.push(event.type);
    expect(types.slice(-2)).toEqual(['finish', 'usage']);
    expect((await fed.stream.result()).usage).toMatchObject({ total_tokens: 4 });
    expect(await fed.done()).toMatchObject([{ ok: true, usage: THE_USAGE }]);
    await fed.close();
  });

  it('a finish (with the usage) after [DONE] makes the answer whole', async () => {
    const fed = await fedChatBody();
    fed.feed(DONE, FINISH_WITH_USAGE);
    fed.end();
    const answer = await fed.stream.result();
    expect(answer).toMatchObject({ text: 'Hi', finishReason: 'stop', usage: { total_tokens: 4 } });
    expect(await fed.done()).toMatchObject([{ ok: true, finishReason: 'stop', usage: THE_USAGE }]);
    await fed.close();
  });
});

describe('a body kept open after [DONE] (the clock driven)', () => {
  it('with the finish: the answer ends within the grace, the slot back (no cut)', async () => {
    driveClock();
    const fed = await fedChatBody();
    fed.feed(FINISH, DONE);
    const answer = await settledAfter(CUT_REQUEST_GRACE_MS, fed.stream.result());
    expect(answer).toMatchObject({ text: 'Hi', finishReason: 'stop' });
    expect(await fed.done()).toMatchObject([{ ok: true }]);
    expect(fed.client.budget.active).toBe(0);
    await fed.close();
  });

  it('without any finish: stream_incomplete once the grace passed', async () => {
    driveClock();
    const fed = await fedChatBody();
    fed.feed(DONE);
    const error = await settledAfter(
      CUT_REQUEST_GRACE_MS,
      caught(() => fed.stream.result()),
    );
    expect(error).toMatchObject({ code: 'stream_incomplete' });
    expect(error.message).toContain('sent [DONE]');
    await fed.close();
  });
});

describe('the last event without its blank line', () => {
  it('the finish chunk as the body’s tail: the answer is whole', async () => {
    const fed = await fedChatBody();
    fed.feed(bytes(unended(FINISH)));
    fed.end();
    expect(await fed.stream.result()).toMatchObject({ text: 'Hi', finishReason: 'stop' });
    await fed.close();
  });

  it('a usage chunk as the body’s tail: the answer has its usage', async () => {
    const fed = await fedChatBody();
    fed.feed(FINISH, bytes(unended(USAGE)));
    fed.end();
    expect((await fed.stream.result()).usage).toMatchObject({ total_tokens: 4 });
    expect(await fed.done()).toMatchObject([{ ok: true, usage: THE_USAGE }]);
    await fed.close();
  });

  it('a tail cut inside its JSON is still a cut, never a short answer', async () => {
    const fed = await fedChatBody();
    fed.feed(content(' there'), bytes(unended(FINISH).slice(0, -4)));
    fed.end();
    const error = await caught(() => fed.stream.result());
    expect(error).toMatchObject({ code: 'stream_incomplete' });
    expect(error.message).toContain('in an event no blank line ended, dropped');
    await fed.close();
  });
});
