import { caught } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import type { GatewayError } from '../src/index';
import { content, DONE, FINISH, fedChatBody, readTo, sse, THE_USAGE, USAGE } from './fed-chat-body';
import { driveClock, settledAfter } from './helpers';

// core README (a stream's end): before the last finish a stop ends the stream at once, nothing
// more handed out. A stop held (n: 2, choice 0's finish taken, choice 1 not begun) reads the body
// on for a cut request's grace: what it decodes meanwhile is not the caller's until the outcome —
// a choice that begins makes it `aborted` (its delta never handed out); a body that ends with no
// other choice ends it ok (the usage, then the end). `cancel()` resolves once the call ended.

afterEach(() => {
  vi.useRealTimers();
});

type Fed = Awaited<ReturnType<typeof fedChatBody>>;
const other = sse({ choices: [{ index: 1, delta: { content: 'B' } }] });
const finishOne = sse({ choices: [{ index: 1, delta: {}, finish_reason: 'stop' }] });

describe('n: 2, a stop after choice 0 finish, a reader still reading', () => {
  it.each([
    ["the caller's abort", (fed: Fed) => fed.abort.abort(new Error('the user left'))],
    ['a cancel', (fed: Fed) => void fed.stream.cancel('left')],
  ])('%s, then choice 1 begins: the next read rejects aborted', async (_, stop) => {
    const fed = await fedChatBody({}, content('Hi'), { n: 2 });
    fed.feed(FINISH);
    const parts = await readTo(fed.stream, 'finish');
    stop(fed);
    const next = caught<GatewayError>(parts.next());
    fed.feed(other, finishOne, USAGE, DONE);
    fed.end();
    expect((await next).code).toBe('aborted');
    expect(await fed.done()).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    await fed.close();
  });

  it('a cancel, then the usage and [DONE] (one choice made): the usage, then the end', async () => {
    const fed = await fedChatBody({}, content('Hi'), { n: 2 });
    fed.feed(FINISH);
    const parts = await readTo(fed.stream, 'finish');
    void fed.stream.cancel('left');
    const next = parts.next();
    fed.feed(USAGE, DONE);
    fed.end();
    expect((await next).value).toMatchObject({ type: 'usage' });
    expect((await parts.next()).done).toBe(true);
    expect(await fed.done()).toMatchObject([{ ok: true, usage: THE_USAGE }]);
    await fed.close();
  });
});

describe('n: 2, await cancel() after choice 0 finish', () => {
  it('resolves once the call ended: the usage and [DONE] after it, done ok', async () => {
    const fed = await fedChatBody({}, content('Hi'), { n: 2 });
    fed.feed(FINISH);
    await readTo(fed.stream, 'finish');
    let resolved = false;
    const cancelled = fed.stream.cancel().then(() => {
      resolved = true;
    });
    await fed.readAll();
    expect(resolved).toBe(false);
    fed.feed(USAGE, DONE);
    fed.end();
    await cancelled;
    expect(fed.events.filter((event) => event.type === 'done')).toMatchObject([
      { ok: true, usage: THE_USAGE },
    ]);
    await fed.close();
  });

  it('resolves once the grace ran out, the body stalled: done aborted', async () => {
    driveClock();
    const fed = await fedChatBody({}, content('Hi'), { n: 2 });
    fed.feed(FINISH);
    await readTo(fed.stream, 'finish');
    const cancelled = fed.stream.cancel();
    await settledAfter(CUT_REQUEST_GRACE_MS, cancelled);
    expect(fed.events.filter((event) => event.type === 'done')).toMatchObject([
      { ok: false, error: { code: 'aborted' } },
    ]);
    await fed.close();
  });
});
