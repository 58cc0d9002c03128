/**
 * Compile-time tests (`pnpm run typecheck` checks them; vitest does not run them): every type a
 * public signature uses can be imported from the entry that exposes the signature.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { CallOptions, GatewayCatalog, GatewayProvider } from '../src/index';
import type {
  CallOptions as CallOptionsV6,
  GatewayCatalog as GatewayCatalogV6,
  GatewayProviderV3,
} from '../src/v6';

describe('the catalog types of gateway.models() / services()', () => {
  it('are exported by both entries', () => {
    expectTypeOf<GatewayProvider>().toExtend<GatewayCatalog>();
    expectTypeOf<GatewayProviderV3>().toExtend<GatewayCatalogV6>();
    expectTypeOf<GatewayProvider['models']>().parameter(0).toEqualTypeOf<CallOptions | undefined>();
    expectTypeOf<GatewayProviderV3['services']>()
      .parameter(0)
      .toEqualTypeOf<CallOptionsV6 | undefined>();
  });
});
