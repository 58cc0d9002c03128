import { caught } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import type { GatewayError } from '../src/index';
import { content, DONE, FINISH, fedChatBody, readTo, sse, THE_USAGE, USAGE } from './fed-chat-body';
import { driveClock, settledAfter } from './helpers';

// core README (a stream's end): a stop after the caller took the finish of every choice begun,
// asked-for choices (`n`) not begun yet, reads the body on for a cut request's grace: a server
// that made fewer choices (one ignoring `n`) ends the body without another, and the call ends ok
// with the usage; a choice that begins first, or the grace run out, ends it `aborted`. `n` is
// read as asksSeveralChoices reads it: `"2"` asks for two.

afterEach(() => {
  vi.useRealTimers();
});

type Fed = Awaited<ReturnType<typeof fedChatBody>>;
const other = sse({ choices: [{ index: 1, delta: { content: 'B' } }] });

/** A body asked for `n: 2`, its choice 0 fed to its finish, and the caller's break there. */
async function brokenAfterFinish() {
  const fed = await fedChatBody({}, content('Hi'), { n: 2 });
  fed.feed(FINISH);
  for await (const event of fed.stream) if (event.type === 'finish') break;
  return fed;
}

describe('n: 2 asked, the server makes one choice', () => {
  it.each([
    ['a break', (_: Fed, parts: AsyncIterator<unknown>) => parts.return?.()],
    ["the caller's abort", (fed: Fed) => fed.abort.abort(new Error('the user left'))],
  ])(
    '%s after its finish, the usage and [DONE] after it: done ok with the usage',
    async (_, stop) => {
      const fed = await fedChatBody({}, content('Hi'), { n: 2 });
      fed.feed(FINISH);
      const parts = await readTo(fed.stream, 'finish');
      await stop(fed, parts);
      fed.feed(USAGE, DONE);
      fed.end();
      expect(await fed.done()).toMatchObject([
        { ok: true, finishReason: 'stop', usage: THE_USAGE },
      ]);
      expect(await fed.stream.result()).toMatchObject({ text: 'Hi', usage: { total_tokens: 4 } });
      await fed.close();
    },
  );

  it('a break after its finish, the body closing without [DONE]: done ok', async () => {
    const fed = await brokenAfterFinish();
    fed.end();
    expect(await fed.done()).toMatchObject([{ ok: true, finishReason: 'stop' }]);
    await fed.close();
  });

  it('a break after its finish, nothing more within the grace: aborted', async () => {
    driveClock();
    const fed = await brokenAfterFinish();
    const [done] = await settledAfter(CUT_REQUEST_GRACE_MS, fed.done());
    expect(done).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect((await caught<GatewayError>(fed.stream.result())).code).toBe('aborted');
    await fed.close();
  });

  it('a break after its finish, choice 1 beginning after it: aborted', async () => {
    const fed = await brokenAfterFinish();
    fed.feed(other);
    expect(await fed.done()).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    expect((await caught<GatewayError>(fed.stream.result())).code).toBe('aborted');
    await fed.close();
  });

  it('choice 1 and [DONE] in one read after the break: aborted', async () => {
    const fed = await brokenAfterFinish();
    const finishOne = sse({ choices: [{ index: 1, delta: {}, finish_reason: 'stop' }] });
    const joined = new Uint8Array([...other, ...finishOne, ...USAGE, ...DONE]);
    fed.feed(joined);
    fed.end();
    expect(await fed.done()).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    await fed.close();
  });
});

describe('n: 2, choice 1 begun after choice 0 finished, the caller reading it', () => {
  it("the caller's abort while choice 1 comes still cuts the call: aborted", async () => {
    const fed = await fedChatBody({}, content('Hi'), { n: 2 });
    fed.feed(FINISH);
    const parts = await readTo(fed.stream, 'finish');
    fed.feed(other);
    expect((await parts.next()).value).toMatchObject({ type: 'text-delta', choiceIndex: 1 });
    fed.abort.abort(new Error('the user left'));
    expect(await fed.done()).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    expect((await caught<GatewayError>(parts.next())).code).toBe('aborted');
    await fed.close();
  });
});

describe('n: "2" asks for two choices (as a lax server reads it)', () => {
  it("a break at choice 0's finish, choice 1 beginning after it: aborted", async () => {
    const fed = await fedChatBody({}, content('Hi'), { n: '2' as unknown as number });
    fed.feed(FINISH);
    for await (const event of fed.stream) if (event.type === 'finish') break;
    fed.feed(other);
    expect(await fed.done()).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    await fed.close();
  });
});
