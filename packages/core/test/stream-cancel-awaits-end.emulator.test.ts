import { describe, expect, it } from 'vitest';
import { content, fedChatBody, USAGE } from './fed-chat-body';

// core README (a stream's end): `await stream.cancel()` before the finish resolves once the call
// ended — the bytes it had buffered decoded (for the usage), its `done` told, its slot back or
// held as a cut — not before, as it did when bytes were buffered.

describe('await cancel() with bytes buffered unread', () => {
  it('resolves after the done event', async () => {
    const fed = await fedChatBody();
    fed.feed(content(' there'), content('!'), USAGE);
    await fed.readAll();
    await fed.stream.cancel();
    const types = fed.events.map((event) => event.type);
    expect(types).toContain('done');
    expect(fed.events.find((event) => event.type === 'done')).toMatchObject({
      ok: false,
      error: { code: 'aborted' },
      usage: { totalTokens: 4 },
    });
    await fed.close();
  });
});
