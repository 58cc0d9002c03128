import { afterEach, describe, expect, it, vi } from 'vitest';
import { content, DONE, FINISH, fedChatBody, USAGE } from './fed-chat-body';
import { driveClock, settledAfter } from './helpers';

// core README (a stream's end): `n` is read as a lax server reads it — `"1"` and `"1.0"` ask for
// one choice, so the caller took the last finish with choice 0's: a break then ends the call ok,
// the usage read on (not a held stop that a late usage turns `aborted` at the grace's end).

afterEach(() => {
  vi.useRealTimers();
});

describe.each(['1', '1.0'])('n: "%s"', (n) => {
  it('a break at the finish, the usage 150 ms later: done ok', async () => {
    driveClock();
    const fed = await fedChatBody({}, content('Hi'), { n: n as unknown as number });
    fed.feed(FINISH);
    for await (const event of fed.stream) if (event.type === 'finish') break;
    await settledAfter(150, fed.readAll());
    fed.feed(USAGE, DONE);
    fed.end();
    expect(await fed.done()).toMatchObject([{ ok: true, finishReason: 'stop' }]);
    expect((await fed.stream.result()).text).toBe('Hi');
    await fed.close();
  });
});
