import { describe, expect, it } from 'vitest';
import { runSiblingRequests, type SiblingRequest } from './sibling-requests';

/** A request that never answers: it ends when its signal aborts, rejecting with the reason. */
function pending(sibling: SiblingRequest): Promise<string> {
  return new Promise<string>((_, reject) => {
    if (sibling.signal.aborted) reject(sibling.signal.reason);
    sibling.signal.addEventListener('abort', () => reject(sibling.signal.reason), { once: true });
  });
}

describe('runSiblingRequests', () => {
  it('resolves to the results in order', async () => {
    const results = await runSiblingRequests([3, 1, 2], undefined, async (n) => n * 10);
    expect(results).toEqual([30, 10, 20]);
  });

  it('the first failure stops the others, and is the rejection once they have ended', async () => {
    const failure = new Error('piece 1 failed');
    const ended: number[] = [];
    const call = runSiblingRequests([0, 1, 2], undefined, async (index, sibling) => {
      if (index === 1) throw failure;
      try {
        return await pending(sibling);
      } finally {
        ended.push(index);
      }
    });
    await expect(call).rejects.toBe(failure);
    expect(ended.sort()).toEqual([0, 2]);
  });

  it("stop (a policy's `failed`) stops every sibling with that failure", async () => {
    const failure = new Error('told before the slot was given back');
    const signals: AbortSignal[] = [];
    const call = runSiblingRequests([0, 1], undefined, async (index, sibling) => {
      signals.push(sibling.signal);
      if (index === 0) sibling.stop(failure);
      return pending(sibling);
    });
    await expect(call).rejects.toBe(failure);
    expect(signals.map((signal) => signal.reason)).toEqual([failure, failure]);
  });

  it("the caller's abort stops them all, with one listener on the caller's signal", async () => {
    const caller = new AbortController();
    let listeners = 0;
    const add = caller.signal.addEventListener.bind(caller.signal);
    caller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners += 1;
      add(...args);
    }) as typeof add;
    const started: SiblingRequest[] = [];
    const call = runSiblingRequests(Array(20).fill(0), caller.signal, (_, sibling) => {
      started.push(sibling);
      return pending(sibling);
    });
    const reason = new Error('caller aborted');
    caller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(listeners).toBe(1);
    expect(started.every((sibling) => sibling.signal.aborted)).toBe(true);
  });

  it('a caller signal aborted already stops every request before it starts', async () => {
    const reason = new Error('aborted before');
    const seen: boolean[] = [];
    const call = runSiblingRequests([0, 1], AbortSignal.abort(reason), async (_, sibling) => {
      seen.push(sibling.signal.aborted);
      throw sibling.signal.reason;
    });
    await expect(call).rejects.toBe(reason);
    expect(seen).toEqual([true, true]);
  });
});
