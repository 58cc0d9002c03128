// docs/gateway-protocol.md §2.5 (a budget of requests in flight per key).
import type { EmulatedGateway } from './emulate';

/** What the gateway saw of a key's budget: `budgetSeen(gateway)`. */
export interface BudgetSeen {
  /** Chat requests it took. */
  chat: number;
  /** Requests it refused for the key's concurrency (429), every key's. */
  concurrencyRejections: number;
  /** The most of the key's requests it had in flight at once. */
  maxInflight: number;
}

/**
 * What the gateway saw of `key`'s budget (the gateway's own key by default), to check in one line
 * that the key's budget held however many clients or processes shared it:
 * `expect(budgetSeen(gateway)).toEqual({ chat: 50, concurrencyRejections: 0, maxInflight: 4 })`.
 */
export function budgetSeen(
  gateway: Pick<EmulatedGateway, 'counters' | 'apiKey'>,
  key = gateway.apiKey,
): BudgetSeen {
  // (From plain JS, an emulator without a key of its own, `startEmulator`'s `.emulator`, would
  // read 0 for a key never named: a check that passes by mistake.)
  if (typeof key !== 'string') {
    throw new TypeError(
      'budgetSeen: name the key (budgetSeen(gateway, key)): this gateway has none',
    );
  }
  const { counters } = gateway;
  return {
    chat: counters.requests.chat,
    concurrencyRejections: counters.concurrencyRejections,
    maxInflight: counters.maxInflight[key] ?? 0,
  };
}
