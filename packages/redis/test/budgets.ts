import { createRedisBudget, type RedisBudget, type RedisBudgetOptions } from '../src/redis-budget';

/**
 * A test file's way to make Redis budgets: each over `defaults()` (read at each call, so it may
 * name a server started later) and then the call's options, handed to `keep` (the file's list of
 * what its cleanup closes).
 */
export function budgetMaker(
  defaults: () => Partial<RedisBudgetOptions>,
  keep: (budget: RedisBudget) => void,
): (options?: Partial<RedisBudgetOptions>) => RedisBudget {
  return (options = {}) => {
    const budget = createRedisBudget({ ...defaults(), ...options } as RedisBudgetOptions);
    keep(budget);
    return budget;
  };
}
