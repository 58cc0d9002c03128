// A streamed choice without `index` (some OpenAI-compatible servers omit it when they send one
// choice) is choice 0 (docs/gateway-protocol.md §4.3): its text is the answer and its finish the
// stream's. The emulator's own stream, each chunk's choices with their `index` removed.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '../src/index';
import { clientOn, hi } from './helpers';

const MODEL = 'community/general';
type Fetch = typeof globalThis.fetch;

/** `fetch` whose streamed answers are the emulator's, each choice without its `index`. */
const withoutIndexes =
  (fetch: Fetch): Fetch =>
  async (input, init) => {
    const answer = await fetch(input, init);
    if (!answer.headers.get('content-type')?.includes('text/event-stream')) return answer;
    let removed = 0;
    const text = (await answer.text()).replace(/^data: (\{.*\})$/gm, (_line, json: string) => {
      const chunk = JSON.parse(json) as { choices?: { index?: number }[] };
      for (const choice of chunk.choices ?? []) {
        if ('index' in choice) removed++;
        delete choice.index;
      }
      return `data: ${JSON.stringify(chunk)}`;
    });
    expect(removed).toBeGreaterThan(0); // the edit did happen
    const headers = new Headers(answer.headers);
    headers.delete('content-length');
    return new Response(text, { status: answer.status, headers });
  };

/** A stream of `hi()` read whole: its events and result. */
async function streamed(wrap?: (fetch: Fetch) => Fetch) {
  const gateway = await emulate();
  const fetch = wrap ? wrap(gateway.connection.fetch) : gateway.connection.fetch;
  const stream = await clientOn(gateway, { fetch }).chatStream(hi(MODEL));
  const events: ChatStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result() };
}

describe('a streamed choice without index', () => {
  it("is choice 0: its text is the answer, its finish the stream's", async () => {
    const plain = await streamed();
    expect(plain.result.text.length).toBeGreaterThan(0);
    const { events, result } = await streamed(withoutIndexes);
    expect(result.text).toBe(plain.result.text);
    expect(result.finishReason).toBe('stop');
    const texts = events.filter((e) => e.type === 'text-delta');
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((e) => e.choiceIndex === 0)).toBe(true);
    expect(events.filter((e) => e.type === 'finish')).toMatchObject([
      { type: 'finish', reason: 'stop', choiceIndex: 0 },
    ]);
  });
});
