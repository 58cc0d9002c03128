import { describe, expect, it } from 'vitest';
import { realmValue } from '../budget/realm';
import { retrySameRequest } from '../http/attempt-policy';
import {
  countedPerModel,
  countModelInflight,
  IDLE_BUDGETS_KEPT,
  IDLE_MODELS_KEPT,
  modelInflight,
} from './model-inflight';

const perBudget = () =>
  realmValue('modelInflightPerBudget', () => new Map<string, Map<string, number>>());

describe('our chat requests in flight, per budget and model', () => {
  it('counts each request once, per budget and per model', () => {
    const budget = `count-test-${Math.random()}`;
    const first = countModelInflight(budget, 'a');
    const second = countModelInflight(budget, 'a');
    countModelInflight(budget, 'b');
    expect(modelInflight(budget, 'a')).toBe(2);
    expect(modelInflight(`${budget}-other`, 'a')).toBe(0);
    first();
    first();
    expect(modelInflight(budget, 'a')).toBe(1);
    second();
    expect(modelInflight(budget, 'a')).toBe(0);
    expect(modelInflight(budget, 'b')).toBe(1);
  });

  it('does not keep the counts of many idle budgets (an app with a key per user)', () => {
    const prefix = `idle-test-${Math.random()}-`;
    // (Other tests of this realm may have left budgets.)
    const before = perBudget().size;
    for (let i = 0; i < IDLE_BUDGETS_KEPT * 3; i++) countModelInflight(`${prefix}${i}`, 'a')();
    expect(perBudget().size).toBeLessThanOrEqual(Math.max(before, IDLE_BUDGETS_KEPT) + 1);
    // A budget forgotten while idle counts again from zero.
    const again = countModelInflight(`${prefix}0`, 'a');
    expect(modelInflight(`${prefix}0`, 'a')).toBe(1);
    again();
    expect(modelInflight(`${prefix}0`, 'a')).toBe(0);
  });

  it('does not keep every model ever called (own-model ids are any string)', () => {
    const budget = `models-test-${Math.random()}`;
    const held = [countModelInflight(budget, 'my/held-a'), countModelInflight(budget, 'my/held-b')];
    for (let i = 0; i < 3000; i++) countModelInflight(budget, `my/tenant-${i}`)();
    const counting = perBudget().get(budget)!;
    expect(counting.size).toBeLessThanOrEqual(IDLE_MODELS_KEPT + held.length);
    // Those in flight keep their counts.
    expect([modelInflight(budget, 'my/held-a'), modelInflight(budget, 'my/held-b')]).toEqual([
      1, 1,
    ]);
    for (const end of held) end();
    expect(modelInflight(budget, 'my/held-a')).toBe(0);
  });

  it("counts a policy's attempts while each one's slot is held", () => {
    const budget = `policy-test-${Math.random()}`;
    const limits = { maxRetries: 2, maxRetryAfterMs: 60_000, retryBaseDelayMs: 0 };
    const policy = countedPerModel(retrySameRequest({ requestedModel: 'm' }, limits), budget);
    const first = policy.request(1, undefined, {});
    expect(modelInflight(budget, 'm')).toBe(1);
    policy.released?.(first);
    expect(modelInflight(budget, 'm')).toBe(0);
    const second = policy.request(2, undefined, {});
    expect(modelInflight(budget, 'm')).toBe(1);
    policy.released?.(second);
    policy.released?.(second);
    expect(modelInflight(budget, 'm')).toBe(0);
  });
});
