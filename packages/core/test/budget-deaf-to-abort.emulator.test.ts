// A budget of the user's that does not listen to the call's signal (docs/gateway-protocol.md §2.5):
// the caller's abort ends the call without waiting for its answer, and a slot it grants after that
// is given back at once. The budget answers only when the test says.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { InProcessBudget } from '../src/budget/in-process-budget';
import type { BudgetAcquireRequest, BudgetLease, KeyBudget } from '../src/budget/key-budget';
import type { GatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

const failed = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: GatewayError) => error,
  );

/** A lease that records its release. */
interface SeenLease extends BudgetLease {
  released: boolean;
}

/**
 * A budget of in-process slots that turns deaf to the signal when `deafen(method)` is called: from
 * then on `method` (`acquire` or `acquireIfFree`) answers only once `answer()` is called.
 */
function deafBudget() {
  const inner = new InProcessBudget();
  let deaf: 'acquire' | 'acquireIfFree' | undefined;
  let asked: () => void = () => {};
  const wasAsked = new Promise<void>((resolve) => (asked = resolve));
  let answer: () => void = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  let granted: (lease: SeenLease) => void = () => {};
  const lease = new Promise<SeenLease>((resolve) => (granted = resolve));
  const late = async (request: BudgetAcquireRequest): Promise<SeenLease> => {
    asked();
    await answered;
    // (The budget takes no notice of the signal: it asks its own with one that never aborts.)
    const own = await inner.acquire({ ...request, signal: new AbortController().signal });
    const seen: SeenLease = {
      released: false,
      release: () => {
        seen.released = true;
        own.release();
      },
    };
    granted(seen);
    return seen;
  };
  const budget: KeyBudget = {
    acquire: (request) => (deaf === 'acquire' ? late(request) : inner.acquire(request)),
    acquireIfFree: (request) =>
      deaf === 'acquireIfFree' ? late(request) : inner.acquireIfFree(request),
  };
  const deafen = (method: 'acquire' | 'acquireIfFree') => {
    deaf = method;
  };
  return { budget, deafen, wasAsked, answer, lease };
}

describe('a custom budget deaf to the abort signal', () => {
  it("a hedge waiting on its acquireIfFree: the caller's abort ends the call before it answers, and its late slot is given back", async () => {
    const gateway = await emulate();
    const { budget, deafen, wasAsked, answer, lease } = deafBudget();
    deafen('acquireIfFree');
    const client = clientOn(gateway, { budget });
    gateway.hold(); // (released by close())
    const controller = new AbortController();
    const call = failed(
      client.chat(hi(), {
        fallbackModels: ['community/streamer'],
        hedge: { afterMs: 30, maxExtra: 1 },
        signal: controller.signal,
      }),
    );
    await wasAsked;
    controller.abort();
    // Settles with the budget still silent (without the fix this waits for `answer()`: never).
    expect((await call)?.code).toBe('aborted');
    answer();
    const late = await lease;
    // (The slot source sees the grant on the microtasks after it.)
    await new Promise((resolve) => setImmediate(resolve));
    expect(late.released).toBe(true);
    await gateway.close();
  });

  it("a call waiting on its acquire: the caller's abort ends the call before it answers, and its late slot is given back", async () => {
    const gateway = await emulate();
    const { budget, deafen, wasAsked, answer, lease } = deafBudget();
    const client = clientOn(gateway, { budget });
    // (The catalog read first, while the budget still listens: the chat's own slot is the deaf one.)
    await client.models();
    deafen('acquire');
    const controller = new AbortController();
    const call = failed(client.chat(hi(), { signal: controller.signal }));
    await wasAsked;
    controller.abort();
    const error = await call;
    expect(error?.code).toBe('aborted');
    expect(gateway.emulator.counters.requests.chat ?? 0).toBe(0);
    answer();
    const late = await lease;
    await new Promise((resolve) => setImmediate(resolve));
    expect(late.released).toBe(true);
    await gateway.close();
  });
});
