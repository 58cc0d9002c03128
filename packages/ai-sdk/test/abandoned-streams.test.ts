import { createInProcessBudget } from '@infergate/core';
import { budgetId } from '@infergate/core/internal';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { BASE_URL, providersOnMsw } from './providers';

const key = DEFAULT_KEYS.full;
const { emulated, emulator, gateway } = await providersOnMsw({ streamChunkDelayMs: 2 });

/** Resolves once no request of the key is at the emulator (every abandoned body has ended). */
async function bodiesEnded(): Promise<void> {
  await emulated.untilIdle({ key });
}

describe('abandoned streams free their slot at once, not after timeoutMs', () => {
  it('4 streamText calls abandoned 4 ways, then 4 calls run at once', async () => {
    // One provider: its client's budget is the one the abandoned streams would hold.
    const budget = createInProcessBudget();
    const provider = gateway({ budget });
    const model = provider('community/streamer');
    const prompt = 'one two three four five six';

    // 1. break out of textStream
    const broken = streamText({ model, prompt });
    for await (const _delta of broken.textStream) break;

    // 2. a result never read
    streamText({ model, prompt });

    // 3. a route that throws after streamText
    const route = async () => {
      const result = streamText({ model, prompt });
      void result;
      throw new Error('the route failed after starting the stream');
    };
    await expect(route()).rejects.toThrow('the route failed');

    // 4. the consumer goes away: the response body is cancelled by the server
    const response = streamText({ model, prompt }).toTextStreamResponse();
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();

    await emulated.untilRequests(4);
    await bodiesEnded();
    // A cut request's key slot comes back a short grace after its close (core's README).
    const id = budgetId(BASE_URL, key);
    // The budget grants all four of the key's slots once every one is back (its own wake-up, no
    // poll); a slot still held makes this wait end at the signal's 10 s, failing the test.
    const signal = AbortSignal.timeout(10_000);
    const deadline = performance.now() + 10_000;
    const leases = await Promise.all(
      Array.from({ length: 4 }, () => budget.acquire({ id, limit: 4, signal, deadline })),
    );
    for (const lease of leases) lease.release();
    expect(budget.state?.(id)?.active).toBe(0);
    emulator.resetCounters();

    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        generateText({ model: provider('community/general'), prompt: `call ${i}` }),
      ),
    );
    expect(answers.map((answer) => answer.text)).toEqual(
      Array.from({ length: 4 }, (_, i) => `Echo: call ${i}`),
    );
    // All 4 ran at once: no slot was still held by an abandoned stream.
    expect(emulator.counters.maxInflight[key]).toBe(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
  });
});
