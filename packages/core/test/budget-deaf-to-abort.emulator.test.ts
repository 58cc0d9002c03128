// A budget of the user's that does not listen to the call's signal (docs/gateway-protocol.md §2.5):
// the caller's abort ends the call without waiting for its answer, and a slot it grants after that
// is given back at once. The budget answers only when the test says. (A hedge's `acquireIfFree`:
// caller-visible-edges.emulator.test.ts, with the kit's slowIfFreeBudget.)
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
 * A budget of in-process slots that turns deaf to the signal when `deafen()` is called: from then
 * on `acquire` answers only once `answer()` is called.
 */
function deafBudget() {
  const inner = new InProcessBudget();
  let deaf = false;
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
    acquire: (request) => (deaf ? late(request) : inner.acquire(request)),
    acquireIfFree: (request) => inner.acquireIfFree(request),
  };
  const deafen = () => {
    deaf = true;
  };
  return { budget, deafen, wasAsked, answer, lease };
}

describe('a custom budget deaf to the abort signal', () => {
  it("a call waiting on its acquire: the caller's abort ends the call before it answers, and its late slot is given back", async () => {
    const gateway = await emulate();
    const { budget, deafen, wasAsked, answer, lease } = deafBudget();
    const client = clientOn(gateway, { budget });
    // (The catalog read first, while the budget still listens: the chat's own slot is the deaf one.)
    await client.models();
    deafen();
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
