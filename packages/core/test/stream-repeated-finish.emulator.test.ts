import { afterEach, describe, expect, it, vi } from 'vitest';
import { DONE, FINISH, fedChatBody, readTo, sse, THE_USAGE } from './fed-chat-body';
import { untilEvents } from './helpers';

// core README (a stream's end): the caller took the last finish once it took one finish of each
// choice; a server that sends choice 0's finish_reason again on its usage chunk (OpenRouter: the
// finish chunk, then a finish + usage chunk) adds no finish to wait for. A stop once the caller
// took the first ends the call ok with the usage — before, no `done` came until the stream was
// collected (`abandoned`), or a break at that finish ended it `aborted`.

afterEach(() => {
  vi.useRealTimers();
});

const FINISH_AND_USAGE = sse({
  choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});

type Fed = Awaited<ReturnType<typeof fedChatBody>>;

/**
 * The body's end read ahead by the client (its slot back) and decoded, nothing of it taken yet: a
 * body that ended is decoded once the read-ahead saw its end, in event-loop turns of its own (no
 * timer), so a few turns after the slot came back the stream is whole.
 */
async function bodyIn(fed: Fed): Promise<void> {
  fed.feed(FINISH_AND_USAGE, DONE);
  fed.end();
  await untilEvents(fed.events, (events) => events.some((event) => event.type === 'released'));
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('a server that repeats the finish on its usage chunk', () => {
  it.each([
    ['a break', (_: Fed, parts: AsyncIterator<unknown>) => parts.return?.()],
    ['a cancel', (fed: Fed) => fed.stream.cancel()],
    ["the caller's abort", (fed: Fed) => fed.abort.abort(new Error('the user left'))],
  ])('%s after the first finish, the body in: done ok with the usage', async (_, stop) => {
    const fed = await fedChatBody();
    fed.feed(FINISH);
    const parts = await readTo(fed.stream, 'finish');
    await bodyIn(fed);
    await stop(fed, parts);
    expect(await fed.done()).toMatchObject([{ ok: true, finishReason: 'stop', usage: THE_USAGE }]);
    expect((await fed.stream.result()).usage).toMatchObject({ total_tokens: 4 });
    await fed.close();
  });

  it('a break at the first finish, handed out of a body already in: done ok with the usage', async () => {
    const fed = await fedChatBody();
    fed.feed(FINISH);
    await readTo(fed.stream, 'text-delta');
    await bodyIn(fed);
    for await (const event of fed.stream) if (event.type === 'finish') break;
    expect(await fed.done()).toMatchObject([{ ok: true, finishReason: 'stop', usage: THE_USAGE }]);
    await fed.close();
  });

  it('a break before the finish, the body in: still aborted', async () => {
    const fed = await fedChatBody();
    await bodyIn(fed);
    for await (const event of fed.stream) if (event.type === 'text-delta') break;
    expect(await fed.done()).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    await fed.close();
  });
});
