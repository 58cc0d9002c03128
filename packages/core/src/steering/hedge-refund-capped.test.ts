// docs/gateway-protocol.md §4.7 (fx-steer13 F2): a hedge given back (no free slot to send it into)
// is given back within the bucket's size. Other calls filling the bucket while a hedge waits for
// its slot must not let refunds save up more hedges than `maxExtra` allows. (Counted in calls, not
// seconds: no clock.)
import { describe, expect, it } from 'vitest';
import { earnHedge, refundHedge, spendHedge } from './hedge-allowance';

/** 0.05 of a hedge per hedged call: at most 2 saved up (`maxExtra × 40`, at least 2). */
const MAX_EXTRA = 0.05;
const BUCKET_SIZE = 2;

/** Every hedge `budgetId` may send now, spent. */
function spendAll(budgetId: string): number {
  let spent = 0;
  while (spent < 100 && spendHedge(budgetId)) spent++;
  return spent;
}

describe('a refunded hedge (fx-steer13 F2)', () => {
  it('never fills the bucket past its size, however many are given back', () => {
    const key = 'refund-capped';
    // Full: enough hedged calls to save up the most.
    for (let i = 0; i < 40; i++) earnHedge(key, MAX_EXTRA);
    for (let round = 0; round < 10; round++) {
      // A hedge is spent, then waits for a slot while other calls fill the bucket again...
      expect(spendHedge(key)).toBe(true);
      for (let i = 0; i < 40; i++) earnHedge(key, MAX_EXTRA);
      // ...and finds none: given back to a full bucket.
      refundHedge(key, MAX_EXTRA);
    }
    expect(spendAll(key)).toBe(BUCKET_SIZE);
  });

  it('still gives back what was spent, below the size', () => {
    const key = 'refund-below';
    for (let i = 0; i < 40; i++) earnHedge(key, MAX_EXTRA);
    expect(spendHedge(key)).toBe(true);
    expect(spendHedge(key)).toBe(true);
    refundHedge(key, MAX_EXTRA);
    expect(spendAll(key)).toBe(1);
  });
});
