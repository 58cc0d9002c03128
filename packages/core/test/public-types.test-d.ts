/**
 * Compile-time tests (`pnpm run typecheck` checks them; vitest does not run them): every type a
 * public signature uses can be imported from the package.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { GatewayDoneEvent, UsageCounts } from '../src/index';

describe('public types', () => {
  it('names the usage of a done event', () => {
    expectTypeOf<GatewayDoneEvent['usage']>().toEqualTypeOf<UsageCounts | undefined>();
  });
});
