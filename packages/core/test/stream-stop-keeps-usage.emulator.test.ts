import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatStream, GatewayError } from '../src/index';
import { DONE, FINISH, fedChatBody, THE_USAGE, USAGE } from './fed-chat-body';

// A stream stopped before its caller took the finish ends aborted (nothing more handed out), but
// its tokens were spent: when the usage was already read off the wire — waiting unread in the
// read-ahead, the body not ended yet — the call's `done` event still reports it.

const stops: [string, (stream: ChatStream, abort: AbortController) => unknown][] = [
  [
    'a break',
    async (stream) => {
      for await (const event of stream) if (event.type === 'text-delta') break;
    },
  ],
  ['a cancel', (stream) => stream.cancel(new Error('stop'))],
  ["the caller's abort", (_stream, abort) => abort.abort(new Error('stop'))],
];

describe('a stream stopped before the finish, its usage read ahead (the body still open)', () => {
  it.each(stops)('%s: done aborted, with the usage', async (_, stop) => {
    const fed = await fedChatBody();
    fed.feed(FINISH, USAGE, DONE);
    await fed.readAll();
    await stop(fed.stream, fed.abort);
    expect(await fed.done()).toMatchObject([
      { ok: false, error: { code: 'aborted' }, usage: THE_USAGE },
    ]);
    expect((await caught<GatewayError>(fed.stream.result())).code).toBe('aborted');
    await fed.close();
  });
});
