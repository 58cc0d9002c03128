import { caught } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import type { GatewayError } from '../src/index';
import { content, DONE, FINISH, fedChatBody, readTo, sse, THE_USAGE, USAGE } from './fed-chat-body';
import { driveClock, settledAfter } from './helpers';

// core README (a stream's end): with several choices, the last finish is that of each choice the
// request asked for (`n`), not only of those decoded so far: a choice whose first bytes come after
// choice 0's finish is still waited for. Until its finish is taken, a stop (a break, the caller's
// abort) ends the call `aborted` (at once when choice 1 began; else once it begins, or the grace
// runs out, the body read on meanwhile); once it is, a stop ends it ok, the usage read on.

afterEach(() => {
  vi.useRealTimers();
});

const TWO = { n: 2 };
const other = (text: string) => sse({ choices: [{ index: 1, delta: { content: text } }] });
const otherFinish = sse({ choices: [{ index: 1, delta: {}, finish_reason: 'stop' }] });

describe('n: 2, choice 1 not begun when choice 0 finished', () => {
  it("a break at choice 0's finish: aborted (choice 1's finish is still to come)", async () => {
    driveClock();
    const fed = await fedChatBody({}, content('Hi'), TWO);
    fed.feed(FINISH);
    for await (const event of fed.stream) if (event.type === 'finish') break;
    fed.feed(other('B'), otherFinish, USAGE, DONE);
    fed.end();
    expect(await fed.done()).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    expect((await caught<GatewayError>(fed.stream.result())).code).toBe('aborted');
    await fed.close();
  });

  it("the caller's abort after choice 0's finish, nothing more coming: aborted after the grace", async () => {
    driveClock();
    const fed = await fedChatBody({}, content('Hi'), TWO);
    fed.feed(FINISH);
    await readTo(fed.stream, 'finish');
    fed.abort.abort(new Error('the user left'));
    // (Read on for a server that made one choice only: stream-stop-n-not-served.)
    const [done] = await settledAfter(CUT_REQUEST_GRACE_MS, fed.done());
    expect(done).toMatchObject({ ok: false, error: { code: 'aborted' } });
    await fed.close();
  });

  it("a break at choice 1's finish, every choice finished: ok, the usage read on", async () => {
    driveClock();
    const fed = await fedChatBody({}, content('Hi'), TWO);
    fed.feed(FINISH, other('B'), otherFinish);
    for await (const event of fed.stream) if (event.type === 'finish' && event.choiceIndex) break;
    fed.feed(USAGE, DONE);
    fed.end();
    expect(await fed.done()).toMatchObject([{ ok: true, finishReason: 'stop', usage: THE_USAGE }]);
    expect(await fed.stream.result()).toMatchObject({ text: 'Hi', finishReason: 'stop' });
    await fed.close();
  });
});
