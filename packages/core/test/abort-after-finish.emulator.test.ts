import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import { content, DONE, FINISH, fedChatBody, readTo, THE_USAGE, USAGE } from './fed-chat-body';
import { driveClock, idle, settledAfter } from './helpers';

// core README (a stream's end): once the caller took the last finish, the answer is complete for
// it, and the call's scope leaves the caller's signal. An abort then is a stop after the finish:
// the body is not cut, the usage that follows is read on for a cut request's grace
// (CUT_REQUEST_GRACE_MS) at most, and the `done` event and `result()` carry it. Before the
// finish, the abort still ends the call at once. (Time bounds the read-on: the clock is driven.)

afterEach(() => {
  vi.useRealTimers();
});

/**
 * On the driven clock, a fed body (`fedChatBody(options)`) read to its finish, then the caller's
 * abort: the body, and the stream's reader after the finish.
 */
async function abortedAfterFinish(options?: Parameters<typeof fedChatBody>[0]) {
  driveClock();
  const fed = await fedChatBody(options);
  fed.feed(FINISH);
  const rest = await readTo(fed.stream, 'finish');
  fed.abort.abort(new Error('the user left'));
  return { fed, rest };
}

describe("the caller's abort right after it took the finish, the body still open", () => {
  it('the usage sent after the abort is read: done ok with it, result() too, no cut', async () => {
    const { fed } = await abortedAfterFinish();
    fed.feed(USAGE, DONE);
    fed.end();
    expect(await fed.done()).toMatchObject([{ ok: true, finishReason: 'stop', usage: THE_USAGE }]);
    expect((await fed.stream.result()).usage).toMatchObject({ total_tokens: 4 });
    // Read to its [DONE]: complete at the gateway, its slot back at once (not held as a cut).
    expect(fed.client.budget.active).toBe(0);
    await fed.close();
  });

  it('the usage never coming: done ok without it once the grace passed, its slot kept as a cut', async () => {
    const { fed } = await abortedAfterFinish();
    const [done] = await settledAfter(CUT_REQUEST_GRACE_MS, fed.done());
    expect(done).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(done).not.toHaveProperty('usage');
    expect(fed.client.budget.active).toBe(1);
    await idle(fed.client);
    expect(fed.client.budget.active).toBe(0);
    await fed.close();
  });

  it('a for-await still reading after the abort gets the usage, then its end', async () => {
    const { fed, rest } = await abortedAfterFinish();
    fed.feed(USAGE, DONE);
    expect((await rest.next()).value).toMatchObject({ type: 'usage' });
    expect((await rest.next()).done).toBe(true);
    await fed.close();
  });
});

describe('a steered stream (its run under a scope of its own)', () => {
  it.each([
    ['a hedged one (its run a child of the race)', { hedge: { afterMs: 60_000 } }],
    ['one with a stall limit', { chunkTimeoutMs: 60_000 }],
  ])('%s: the abort after the finish keeps the usage too', async (_, options) => {
    const { fed } = await abortedAfterFinish({
      fallbackModels: ['community/streamer'],
      ...options,
    });
    fed.feed(USAGE, DONE);
    fed.end();
    expect(await fed.done()).toMatchObject([{ ok: true, usage: THE_USAGE }]);
    await fed.close();
  });
});

describe("the caller's abort before the finish", () => {
  it('still ends the call aborted at once, the body cut (the clock not moved)', async () => {
    driveClock();
    const fed = await fedChatBody();
    await readTo(fed.stream, 'text-delta');
    fed.abort.abort(new Error('the user left'));
    expect(await fed.done()).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    fed.feed(content('!'), FINISH, USAGE, DONE);
    await expect(fed.stream.result()).rejects.toMatchObject({ code: 'aborted' });
    await fed.close();
  });
});
