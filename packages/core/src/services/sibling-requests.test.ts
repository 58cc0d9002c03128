import { describe, expect, it } from 'vitest';
import { callEndedError } from '../call/call-scope';
import { isGatewayError } from '../errors/errors';
import { inTurns } from './requests-in-turns';
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

describe('runSiblingRequests with inTurns', () => {
  /** Requests that answer when told (`answer(i)`); `untilStarted(n)`: once `n` have started. */
  function held() {
    const started: number[] = [];
    const answers = new Map<number, () => void>();
    const waiters: { count: number; resolve: () => void }[] = [];
    let running = 0;
    let most = 0;
    const send = (index: number) => {
      started.push(index);
      running += 1;
      most = Math.max(most, running);
      const answered = new Promise<number>((resolve) => {
        answers.set(index, () => {
          running -= 1;
          resolve(index);
        });
      });
      for (const waiter of waiters) if (started.length >= waiter.count) waiter.resolve();
      return answered;
    };
    const untilStarted = (count: number) =>
      new Promise<void>((resolve) => {
        if (started.length >= count) resolve();
        else waiters.push({ count, resolve });
      });
    const answer = (index: number) => answers.get(index)!();
    return { started, send, untilStarted, answer, most: () => most };
  }

  it('runs at most `limit` sends at once, in order, and keeps the results in order', async () => {
    const requests = held();
    const call = runSiblingRequests([0, 1, 2, 3, 4], undefined, inTurns(2, requests.send));
    await requests.untilStarted(2);
    expect(requests.started).toEqual([0, 1]);
    // The second ends first: the third starts in its place, the first still running.
    requests.answer(1);
    await requests.untilStarted(3);
    expect(requests.started).toEqual([0, 1, 2]);
    requests.answer(0);
    await requests.untilStarted(4);
    requests.answer(2);
    requests.answer(3);
    await requests.untilStarted(5);
    requests.answer(4);
    expect(await call).toEqual([0, 1, 2, 3, 4]);
    expect(requests.most()).toBe(2);
  });

  /** A `send` that records the index of each request it starts in `started`, then runs `then`. */
  function startsRecorded<T>(then: (index: number, sibling: SiblingRequest) => Promise<T>) {
    const started: number[] = [];
    const send = (index: number, sibling: SiblingRequest) => {
      started.push(index);
      return then(index, sibling);
    };
    return { started, send };
  }

  it('starts none once one failed; the failure is the rejection', async () => {
    const failure = new Error('batch 0 failed');
    const { started, send } = startsRecorded(async () => {
      throw failure;
    });
    await expect(runSiblingRequests([0, 1, 2], undefined, inTurns(1, send))).rejects.toBe(failure);
    expect(started).toEqual([0]);
  });

  /** A sent request that never answers: it ends when its signal aborts, as core's requests end. */
  async function sentRequest(sibling: SiblingRequest): Promise<string> {
    try {
      return await pending(sibling);
    } catch (reason) {
      throw callEndedError(reason);
    }
  }

  it("the caller's abort stops the running ones and starts no other", async () => {
    const caller = new AbortController();
    const { started, send } = startsRecorded((_, sibling) => sentRequest(sibling));
    const call = runSiblingRequests([0, 1, 2, 3], caller.signal, inTurns(2, send));
    const reason = new Error('caller aborted');
    caller.abort(reason);
    await expect(call).rejects.toMatchObject({ code: 'aborted', cause: reason });
    expect(started).toEqual([0, 1]);
  });

  it("a request stopped while it waits fails as a sent one does (aborted), not with the caller's reason", async () => {
    const caller = new AbortController();
    const requests = held();
    const call = runSiblingRequests([0, 1], caller.signal, inTurns(1, requests.send));
    await requests.untilStarted(1);
    const reason = new Error('caller aborted');
    caller.abort(reason);
    // The one sent still answers: the waiting one's leaving is the call's only failure.
    requests.answer(0);
    const error = await call.catch((thrown: unknown) => thrown);
    expect(isGatewayError(error) && [error.code, error.cause]).toEqual(['aborted', reason]);
    expect(requests.started).toEqual([0]);
  });

  it('a caller signal aborted already: none is sent, none is left waiting', async () => {
    const reason = new Error('aborted before');
    const { started, send } = startsRecorded(async (index) => index);
    const call = runSiblingRequests([0, 1, 2], AbortSignal.abort(reason), inTurns(1, send));
    await expect(call).rejects.toMatchObject({ code: 'aborted', cause: reason });
    expect(started).toEqual([]);
  });
});

describe('runSiblingRequests letting some finish (`letFinish`)', () => {
  /**
   * Three siblings: 0 fails with `failure` (through `stop`, as a retry policy's `failed` does,
   * then thrown) once the others have started, 1 answers when told, 2 never answers.
   */
  function threeSiblings(failure: Error, letFinish: boolean, caller?: AbortSignal) {
    const siblings: SiblingRequest[] = [];
    const answered: number[] = [];
    let answer!: () => void;
    const call = runSiblingRequests(
      [0, 1, 2],
      caller,
      async (index, sibling) => {
        siblings[index] = sibling;
        if (index === 2) return pending(sibling);
        if (index === 1) {
          await new Promise<void>((resolve, reject) => {
            answer = resolve;
            const onAbort = () => reject(sibling.signal.reason);
            sibling.signal.addEventListener('abort', onAbort, { once: true });
          });
          answered.push(index);
          return 'answered';
        }
        await Promise.resolve();
        sibling.stop(failure);
        throw failure;
      },
      // Request 1 only (the one "sent"), after that failure (also the reason it stops 2 with).
      (error, index) => letFinish && index === 1 && error === failure,
    );
    return { call, siblings, answered, answer: () => answer() };
  }

  it('the requests it names are let finish, the others stopped; then the call rejects', async () => {
    const failure = new Error('busy');
    const { call, siblings, answered, answer } = threeSiblings(failure, true);
    const settled = call.catch((error: unknown) => error);
    await Promise.resolve();
    expect(siblings.map((sibling) => sibling.signal.aborted)).toEqual([true, false, true]);
    answer();
    expect(await settled).toBe(failure);
    expect(answered).toEqual([1]);
  });

  it('naming none, it stops them all', async () => {
    const failure = new Error('bad request');
    const { call, siblings, answered } = threeSiblings(failure, false);
    await expect(call).rejects.toBe(failure);
    expect(siblings.map((sibling) => sibling.signal.aborted)).toEqual([true, true, true]);
    expect(answered).toEqual([]);
  });

  it("the caller's abort stops those a failure let finish", async () => {
    const failure = new Error('busy');
    const caller = new AbortController();
    const { call, siblings, answered } = threeSiblings(failure, true, caller.signal);
    const settled = call.catch((error: unknown) => error);
    await Promise.resolve();
    caller.abort(new Error('caller left'));
    // Still the first failure: the abort ended the call after it.
    expect(await settled).toBe(failure);
    expect(siblings[1]!.signal.aborted).toBe(true);
    expect(answered).toEqual([]);
  });
});
