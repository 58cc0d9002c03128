// A server making a client per request with each user's key (README, "Memory"): the hedge state
// the realm keeps per key stays within its caps, however many keys were seen, and a key in use
// keeps learning; so do the breakers' observations, and a key in use still opens its breaker.
import { createEmulator } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import { budgetId } from '../src/budget/budget-id';
import { createGatewayClient } from '../src/index';
import { MAX_ENTRIES } from '../src/steering/circuit-breaker';
import { HEDGE_ALLOWANCES_KEPT } from '../src/steering/hedge-allowance';
import { AUTO_HEDGE, HEDGE_TIMINGS_KEPT, hedgeDelay } from '../src/steering/hedge-delay';
import { DEFAULT_KEYS, hi, sizeOf } from './helpers';

// Each test makes thousands of clients, each reading its own catalog: minutes on a loaded 2-core
// machine. The timeout is there to catch a hang, not slowness.
const THOUSANDS_OF_CLIENTS = { timeout: 300_000 };

describe('hedge state with a client per user key', THOUSANDS_OF_CLIENTS, () => {
  it('keeps the keys in use, within its caps, not every key ever seen', async () => {
    const emulator = createEmulator();
    // Each user its own budget id (its own gateway origin here: the key stays the emulator's).
    const userClient = (user: string) =>
      createGatewayClient({
        baseURL: `https://${user}.per-key-state.test/v1`,
        apiKey: DEFAULT_KEYS.full,
        fetch: emulator.fetch,
        hedge: { afterMs: 'auto' },
      });
    const regular = userClient('regular');
    const users = Math.max(HEDGE_TIMINGS_KEPT, HEDGE_ALLOWANCES_KEPT) + 200;
    for (let user = 0; user < users; user++) {
      await userClient(`user-${user}`).chat(hi());
      if (user % 8 === 0) await regular.chat(hi());
    }
    expect(sizeOf('hedgeTimings')).toBeLessThanOrEqual(HEDGE_TIMINGS_KEPT);
    expect(sizeOf('hedgeBuckets')).toBeLessThanOrEqual(HEDGE_ALLOWANCES_KEPT);
    // The regular user's timings were kept: its wait has moved from the prior towards its answers'
    // p95 (how far depends on the machine's speed, so only the move is asserted); user-0's were
    // forgotten, so its wait is the prior again.
    const id = (user: string) =>
      budgetId(`https://${user}.per-key-state.test/v1`, DEFAULT_KEYS.full);
    expect(hedgeDelay('auto', id('regular'), 'community/general', false)).toBeLessThan(
      AUTO_HEDGE.priorMs.whole,
    );
    expect(hedgeDelay('auto', id('user-0'), 'community/general', false)).toBe(
      AUTO_HEDGE.priorMs.whole,
    );
  });
});

describe("the breakers' observations with a client per user key", THOUSANDS_OF_CLIENTS, () => {
  it('stay within their cap when every key saw a failure; a key in use still opens', async () => {
    const emulator = createEmulator();
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
    const userClient = (user: string) =>
      createGatewayClient({
        baseURL: `https://${user}.per-key-breakers.test/v1`,
        apiKey: DEFAULT_KEYS.full,
        fetch: emulator.fetch,
        maxRetries: 0,
        // A cooldown no run of this test outlasts: on a loaded machine the 5 s default passed
        // between the regular user's calls, and its last call was a probe, not a skip.
        circuitBreaker: { cooldownMs: 3_600_000, maxCooldownMs: 3_600_000 },
      });
    const list = { fallbackModels: ['community/streamer'] };
    const regular = userClient('regular');
    let last: Awaited<ReturnType<typeof regular.chat>> | undefined;
    for (let user = 0; user < MAX_ENTRIES + 200; user++) {
      await userClient(`user-${user}`).chat(hi(), list);
      if (user % 1000 === 0) last = await regular.chat(hi(), list);
    }
    expect(sizeOf('circuit-observations')).toBeLessThanOrEqual(MAX_ENTRIES);
    expect(last?.route.hops[0]).toEqual({
      model: 'community/general',
      outcome: 'skipped',
      reason: 'circuit_open',
    });
  });
});
