import { describe, expect, it } from 'vitest';
import { DONE_EVENT } from './chat-events';
import { sseBody } from './sse-body';

const decoder = new TextDecoder();

/** Reads until [DONE] has arrived, reporting whether `onEnd` had run by then. */
async function readToDone(events: string[], chunkDelayMs: number) {
  let ends = 0;
  const body = sseBody(events[Symbol.iterator](), {
    chunkDelayMs,
    deadline: Number.POSITIVE_INFINITY,
    signal: new AbortController().signal,
    onEnd: () => {
      ends += 1;
    },
  });
  const reader = body.getReader();
  let text = '';
  while (!text.includes(DONE_EVENT)) {
    const { done, value } = await reader.read();
    if (done) throw new Error('the body ended before [DONE]');
    text += decoder.decode(value);
  }
  const endedAtDone = ends;
  const rest = await reader.read();
  return { text, endedAtDone, rest, ends };
}

describe('sseBody', () => {
  it('ends (releases the slot) with [DONE] when events are paced', async () => {
    const events = ['data: a\n\n', 'data: b\n\n', DONE_EVENT];
    const { text, endedAtDone, rest, ends } = await readToDone(events, 1);
    expect(text).toBe(events.join(''));
    expect(endedAtDone).toBe(1);
    expect(rest.done).toBe(true);
    expect(ends).toBe(1);
  });

  it('ends with [DONE] when [DONE] fills a batch exactly', async () => {
    const filler = `data: ${'x'.repeat(16 * 1024 - DONE_EVENT.length - 8)}\n\n`;
    const { text, endedAtDone, rest } = await readToDone([filler, DONE_EVENT], 0);
    expect(text.length).toBe(16 * 1024);
    expect(endedAtDone).toBe(1);
    expect(rest.done).toBe(true);
  });

  it('still fails after the events produced before a cut, ending once', async () => {
    function* cut() {
      yield 'data: a\n\n';
      throw new TypeError('terminated');
    }
    let ends = 0;
    const reader = sseBody(cut(), {
      chunkDelayMs: 1,
      deadline: Number.POSITIVE_INFINITY,
      signal: new AbortController().signal,
      onEnd: () => {
        ends += 1;
      },
    }).getReader();
    expect(decoder.decode((await reader.read()).value)).toBe('data: a\n\n');
    expect(ends).toBe(0);
    await expect(reader.read()).rejects.toThrow('terminated');
    expect(ends).toBe(1);
  });
});
