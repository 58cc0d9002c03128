import { caught } from '@infergate/emulator/testing';
import { describe, expect, it, vi } from 'vitest';
import { READ_AHEAD_HIGH_WATER_BYTES, READ_SLICE_BYTES } from '../src/http/body-read-ahead';
import type { ChatStreamEvent, GatewayError } from '../src/index';
import { content, DONE, FINISH, fedChatBody, THE_USAGE, USAGE } from './fed-chat-body';

// A body read whole before its caller took its events is decoded at its end, read or not (core
// README, a stream's end) — in slices, the event loop given a turn between them: a large answer
// left unread must not block the process while it is decoded (timers, sockets, other calls). The
// abort rule holds between slices: until the caller took the finish, an abort wins.

/**
 * Some 900 KB of answer (more than three read slices, under the read-ahead's 1 MiB pause), its
 * finish, usage and [DONE] included, in one chunk (as a body handed over whole comes).
 */
const WORDS = 5000;
function largeAnswer(): Uint8Array {
  const words = Array.from({ length: WORDS }, (_, i) => content(`word${i} ${'x'.repeat(60)} `));
  const parts = [...words, FINISH, USAGE, DONE];
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.byteLength;
  }
  expect(all.byteLength).toBeGreaterThan(3 * READ_SLICE_BYTES);
  expect(all.byteLength).toBeLessThan(READ_AHEAD_HIGH_WATER_BYTES);
  return all;
}

/** A turn of the event loop: what runs once the microtasks queued before it have run. */
const aTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const deltas = (events: ChatStreamEvent[]) => events.filter((e) => e.type === 'text-delta');

/** A large answer fed whole and ended, its slot back (the body read), then a turn of the event loop. */
async function largeBodyReadThenATurn() {
  const fed = await fedChatBody();
  fed.feed(largeAnswer());
  fed.end();
  await fed.client.budget.whenIdle();
  await aTurn();
  return fed;
}

describe('a large body read whole, its events not taken', () => {
  it('is decoded in slices: the event loop gets a turn before its last event is decoded', async () => {
    // The body has ended (its slot back). The next turn comes before the decoding ends: what
    // the caller can take then holds no finish yet (decoded in one go, it would hold them all;
    // in slices, at most two of the four are decoded by then, the finish in the last).
    const fed = await largeBodyReadThenATurn();
    const first = (await fed.stream.readBatch()) ?? [];
    expect(first.some((event) => event.type === 'finish')).toBe(false);
    const rest: ChatStreamEvent[] = [...first];
    for (let batch = await fed.stream.readBatch(); batch; batch = await fed.stream.readBatch()) {
      rest.push(...batch);
    }
    // Every event, in order, and the call's end ok with its usage.
    expect(deltas(rest)).toHaveLength(WORDS + 1);
    expect(rest.map((event) => event.type).slice(-2)).toEqual(['finish', 'usage']);
    expect(await fed.done()).toMatchObject([{ ok: true, usage: THE_USAGE }]);
    await fed.close();
  });

  it('an abort between slices wins: nothing more handed out, done aborted with the usage', async () => {
    const fed = await largeBodyReadThenATurn();
    fed.abort.abort(new Error('stop'));
    expect((await caught<GatewayError>(fed.stream.readBatch())).code).toBe('aborted');
    expect(await fed.done()).toMatchObject([
      { ok: false, error: { code: 'aborted' }, usage: THE_USAGE },
    ]);
    await fed.close();
  });
});

describe('a body handed over in one large chunk', () => {
  it('is never decoded in one piece, its first bytes included (each decode a slice at most)', async () => {
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    try {
      const fed = await fedChatBody({}, largeAnswer());
      fed.end();
      const answer = await fed.stream.result();
      expect(answer.text).toContain(`word${WORDS - 1} `);
      const sizes = decode.mock.calls.map(
        ([input]) => (input as Uint8Array | undefined)?.byteLength ?? 0,
      );
      expect(Math.max(...sizes)).toBeLessThanOrEqual(READ_SLICE_BYTES);
      await fed.close();
    } finally {
      decode.mockRestore();
    }
  });
});
