import { describe, expect, it } from 'vitest';
import { AUTO_HEDGE, autoDelay, autoDelayCap, hedgeDelay, recordFirstContent } from './hedge-delay';

const PRIOR = 2_000;

describe("'auto' hedge delay: a prior that moves to the model's p95 as answers arrive", () => {
  it('starts at the prior, before any answer', () => {
    expect(autoDelay([], PRIOR)).toBe(PRIOR);
    expect(hedgeDelay('auto', 'fresh-budget', 'some/model', true)).toBe(AUTO_HEDGE.priorMs.stream);
    expect(hedgeDelay('auto', 'fresh-budget', 'some/model', false)).toBe(AUTO_HEDGE.priorMs.whole);
  });

  it('moves by the share of answers seen, and is their p95 from `learnedAt` on', () => {
    const half = Array.from({ length: AUTO_HEDGE.learnedAt / 2 }, () => 400);
    expect(autoDelay(half, PRIOR)).toBe((PRIOR + 400) / 2);
    const all = Array.from({ length: AUTO_HEDGE.learnedAt }, (_, i) => 100 + i * 10);
    // 16 samples: the p95 is the 16th (ceil(16 × 0.95) = 16), 250.
    expect(autoDelay(all, PRIOR)).toBe(250);
  });

  it('stays within the floor and the ceiling', () => {
    const fast = Array.from({ length: AUTO_HEDGE.learnedAt }, () => 1);
    expect(autoDelay(fast, PRIOR)).toBe(AUTO_HEDGE.floorMs);
    expect(autoDelay([], 60_000)).toBe(AUTO_HEDGE.ceilingMs);
  });

  it('learns per budget, model and kind of call', () => {
    for (let i = 0; i < AUTO_HEDGE.learnedAt; i++) recordFirstContent('b1', 'm', true, 300);
    expect(hedgeDelay('auto', 'b1', 'm', true)).toBe(300);
    expect(hedgeDelay('auto', 'b1', 'm', false)).toBe(AUTO_HEDGE.priorMs.whole);
    expect(hedgeDelay('auto', 'b2', 'm', true)).toBe(AUTO_HEDGE.priorMs.stream);
    expect(hedgeDelay(75, 'b1', 'm', true)).toBe(75);
  });

  it("waits at most half of the first attempt's limit, below the floor too; a fixed afterMs as given", () => {
    expect(autoDelayCap(1_500)).toBe(750);
    expect(hedgeDelay('auto', 'capped', 'm', true, 1_500)).toBe(750);
    expect(hedgeDelay('auto', 'capped', 'm', false, 5_000)).toBe(2_500);
    expect(hedgeDelay('auto', 'capped', 'm', true, 60)).toBe(30);
    expect(hedgeDelay('auto', 'capped', 'm', true, 60_000)).toBe(AUTO_HEDGE.priorMs.stream);
    expect(hedgeDelay(900, 'capped', 'm', true, 1_000)).toBe(900);
  });
});
