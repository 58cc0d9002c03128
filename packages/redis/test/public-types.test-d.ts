/**
 * Compile-time tests (`pnpm run typecheck` checks them; vitest does not run them): every type a
 * public signature uses can be imported from the package.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { RedisBudget, RedisBudgetOptions, RedisTlsOptions } from '../src/index';

describe('public types', () => {
  it('names the TLS settings of a rediss:// budget', () => {
    expectTypeOf<RedisBudgetOptions['tls']>().toEqualTypeOf<RedisTlsOptions | undefined>();
  });

  it("reads this process's count of a budget id: required, never undefined", () => {
    expectTypeOf<RedisBudget['state']>().toEqualTypeOf<
      (id: string) => { active: number; queued: number }
    >();
  });
});
