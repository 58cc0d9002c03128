import { caught } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import type { GatewayError } from '../src/index';
import { DONE, FINISH, fedChatBody, readTo, THE_USAGE, USAGE } from './fed-chat-body';
import { driveClock, settledAfter } from './helpers';

// core README (a stream's end): once the caller took the finish, the answer is complete for it.
// A `break` (or a cancel, or an abort) right after it, the body still arriving, ends the call ok:
// the usage the gateway sends after the finish is still read when it comes within a cut request's
// grace (CUT_REQUEST_GRACE_MS), and the `done` event and `result()` report it; when it does not
// come, the call ends ok without it — never `aborted`. Before the finish, a stop still wins.

afterEach(() => {
  vi.useRealTimers();
});

describe('a stream stopped right after its caller took the finish, the body still arriving', () => {
  it('a for-await that breaks at the finish: the usage that follows is read, done ok with it', async () => {
    const fed = await fedChatBody();
    fed.feed(FINISH);
    for await (const event of fed.stream) if (event.type === 'finish') break;
    // The usage comes after the break.
    fed.feed(USAGE, DONE);
    fed.end();
    expect(await fed.done()).toMatchObject([{ ok: true, usage: THE_USAGE }]);
    expect((await fed.stream.result()).usage).toMatchObject({ total_tokens: 4 });
    await fed.close();
  });

  it.each([
    [
      'a break',
      async (fed: Awaited<ReturnType<typeof fedChatBody>>) => {
        for await (const event of fed.stream) if (event.type === 'finish') break;
      },
    ],
    [
      'a cancel',
      async (fed: Awaited<ReturnType<typeof fedChatBody>>) => {
        for await (const event of fed.stream)
          if (event.type === 'finish') return fed.stream.cancel();
      },
    ],
  ])('%s, the usage never coming: done ok without it after the grace', async (_, stop) => {
    const fed = await fedChatBody();
    fed.feed(FINISH);
    driveClock();
    await stop(fed);
    const [done] = await settledAfter(CUT_REQUEST_GRACE_MS, fed.done());
    expect(done).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(done).not.toHaveProperty('usage');
    const answer = await fed.stream.result();
    expect(answer).toMatchObject({ text: 'Hi', finishReason: 'stop' });
    expect(answer.usage).toBeUndefined();
    await fed.close();
  });

  it("the caller's abort after the finish, no usage sent: done ok without it", async () => {
    const fed = await fedChatBody();
    fed.feed(FINISH);
    for await (const event of fed.stream) if (event.type === 'finish') break;
    fed.abort.abort(new Error('stop'));
    expect(await fed.done()).toMatchObject([{ ok: true }]);
    await fed.close();
  });

  it('the deadline after the finish, the caller waiting for the usage: the answer ends ok', async () => {
    driveClock();
    const fed = await fedChatBody({ timeoutMs: 1_000 });
    fed.feed(FINISH);
    const parts = await readTo(fed.stream, 'finish');
    const [done] = await settledAfter(1_000, fed.done());
    expect(done).toMatchObject({ ok: true, finishReason: 'stop' });
    expect((await parts.next()).done).toBe(true);
    await fed.close();
  });

  it('a break before the finish still ends it aborted', async () => {
    const fed = await fedChatBody();
    for await (const event of fed.stream) if (event.type === 'text-delta') break;
    fed.feed(FINISH, USAGE, DONE);
    expect(await fed.done()).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    expect((await caught<GatewayError>(fed.stream.result())).code).toBe('aborted');
    await fed.close();
  });
});
