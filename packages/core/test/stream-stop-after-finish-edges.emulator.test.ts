import { caught } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import type { GatewayError } from '../src/index';
import { DONE, FINISH, fedChatBody, readTo, sse } from './fed-chat-body';
import { driveClock, idle, settledAfter } from './helpers';

// core README (a stream's end), its edges: once the caller stopped after taking the finish, what
// is read on is for the usage only — a failure arriving then ends the call ok, as the answer is;
// a body core cancels before its [DONE] is a cut (the key slot kept CUT_REQUEST_GRACE_MS, as the
// gateway counts the request until it sees the close); and with several choices the finish that
// counts is the last one (every choice's).

afterEach(() => {
  vi.useRealTimers();
});

type Fed = Awaited<ReturnType<typeof fedChatBody>>;
const ERROR_EVENT = sse({ error: { code: 'provider_request_failed', message: 'boom' } });
const MALFORMED = new TextEncoder().encode('data: {"choices":[{\n\n');
const other = (text: string) => sse({ choices: [{ index: 1, delta: { content: text } }] });
const otherFinish = sse({ choices: [{ index: 1, delta: {}, finish_reason: 'stop' }] });

const breakAtFinish = async (fed: Fed) => {
  for await (const event of fed.stream) if (event.type === 'finish') break;
};

describe('a failure read on after a stop that followed the finish', () => {
  it.each([
    ['a break, then an error event', breakAtFinish, ERROR_EVENT],
    [
      'a cancel, then a malformed event',
      async (fed: Fed) => {
        await readTo(fed.stream, 'finish');
        await fed.stream.cancel();
      },
      MALFORMED,
    ],
  ])('%s: the call still ends ok, with the answer as it was', async (_, stop, bytes) => {
    driveClock();
    const fed = await fedChatBody();
    fed.feed(FINISH);
    await stop(fed);
    fed.feed(bytes, DONE);
    fed.end();
    expect(await fed.done()).toMatchObject([{ ok: true, finishReason: 'stop' }]);
    expect(await fed.stream.result()).toMatchObject({ text: 'Hi', finishReason: 'stop' });
    await fed.close();
  });
});

describe('a body cancelled after the finish, before its [DONE], is a cut', () => {
  it('a break at the finish, the tail stalled: the key slot is kept the grace after the end', async () => {
    driveClock();
    const fed = await fedChatBody();
    fed.feed(FINISH);
    await breakAtFinish(fed);
    const [done] = await settledAfter(CUT_REQUEST_GRACE_MS, fed.done());
    expect(done).toMatchObject({ ok: true });
    expect(fed.client.budget.active).toBe(1);
    await idle(fed.client);
    expect(fed.client.budget.active).toBe(0);
    await fed.close();
  });

  it('a silence after the finish (chunkTimeoutMs) ends the answer ok, its slot kept as a cut', async () => {
    driveClock();
    const fed = await fedChatBody({ chunkTimeoutMs: 1_000 });
    fed.feed(FINISH);
    await readTo(fed.stream, 'finish');
    const [done] = await settledAfter(1_000, fed.done());
    expect(done).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(fed.client.budget.active).toBe(1);
    await idle(fed.client);
    expect(fed.client.budget.active).toBe(0);
    await fed.close();
  });
});

describe('a stop with several choices: ok only after the last finish', () => {
  it.each([
    ["a break at choice 0's finish, choice 1 still coming: aborted", FINISH],
    ["a break at choice 1's finish, choice 0 still coming: aborted", otherFinish],
  ])('%s', async (_, finish) => {
    driveClock();
    const fed = await fedChatBody();
    fed.feed(other('B'), finish);
    await breakAtFinish(fed);
    expect(await fed.done()).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    expect((await caught<GatewayError>(fed.stream.result())).code).toBe('aborted');
    await fed.close();
  });

  it('a break at the last finish, every choice finished: ok, the usage read on', async () => {
    driveClock();
    const fed = await fedChatBody();
    fed.feed(other('B'), otherFinish, FINISH);
    for await (const event of fed.stream) if (event.type === 'finish' && !event.choiceIndex) break;
    fed.feed(DONE);
    fed.end();
    expect(await fed.done()).toMatchObject([{ ok: true, finishReason: 'stop' }]);
    expect(await fed.stream.result()).toMatchObject({ text: 'Hi', finishReason: 'stop' });
    await fed.close();
  });
});
