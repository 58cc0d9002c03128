import { createRequire } from 'node:module';
import { createEmulator } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KEYS, hi } from './helpers';

// A Next.js app bundles core once per route, and Node may load the ESM and the CJS build side by
// side: every copy must find the realm's one default budget, and none may fail to start.
describe('two copies of core in one realm', () => {
  it('share the default key budget (the ESM and the CJS build)', async () => {
    // Typed from the source: type-checking must not need dist/, which the build may be rewriting.
    type Core = typeof import('../src/index');
    const built = new URL('../dist/', import.meta.url);
    const esm = (await import(/* @vite-ignore */ new URL('index.js', built).href)) as Core;
    const cjs = createRequire(import.meta.url)('../dist/index.cjs') as Core;
    expect(esm.createGatewayClient).not.toBe(cjs.createGatewayClient);
    const emulator = createEmulator({ latencyMs: 100 });
    const options = {
      baseURL: 'https://two-copies.test/v1',
      apiKey: DEFAULT_KEYS.full,
      fetch: emulator.fetch,
    };
    const fromEsm = esm.createGatewayClient(options);
    const fromCjs = cjs.createGatewayClient(options);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? fromEsm : fromCjs).chat(hi())),
    );
    // One budget for both copies: never more than the key's 4 at once, so no 429 (two budgets
    // would let 8 through). How many overlap depends on the machine's load.
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBeLessThanOrEqual(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
  });
});
