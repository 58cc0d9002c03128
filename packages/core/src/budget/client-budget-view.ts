// docs/gateway-protocol.md §2.5 (the key's slots, as one client sees them).
import { InProcessBudget } from './in-process-budget';
import type { ConcurrencyBudgetState, KeyBudget } from './key-budget';
import type { PendingCalls } from './pending-calls';
import { drained } from './releases-due';
import type { Semaphore } from './semaphore';

/**
 * One client's view: its own `maxConcurrency` queue plus the key's count in the budget, and its
 * calls not ended (idle only once none is).
 */
export class ClientBudgetView implements ConcurrencyBudgetState {
  readonly #local: Semaphore;
  readonly #calls: PendingCalls;
  readonly #budget: KeyBudget | undefined;
  readonly #id: string;
  readonly limit: number;

  constructor(
    local: Semaphore,
    calls: PendingCalls,
    budget: KeyBudget | undefined,
    id: string,
    limit: number,
  ) {
    this.#local = local;
    this.#calls = calls;
    this.#budget = budget;
    this.#id = id;
    this.limit = limit;
  }
  #keyState(): { active: number; queued: number } | undefined {
    try {
      return this.#budget?.state?.(this.#id);
    } catch {
      return undefined;
    }
  }
  /** Requests of this key in flight (all clients sharing the budget); this client's own when the budget cannot tell. */
  get active(): number {
    return this.#keyState()?.active ?? this.#local.active;
  }
  /** Calls waiting: this client's behind its `maxConcurrency`, plus the key's queue. */
  get queued(): number {
    return this.#local.queued + (this.#keyState()?.queued ?? 0);
  }
  /** This client's calls begun and not ended: in flight, queued, reading the catalog or retrying. */
  get pendingCalls(): number {
    return this.#calls.count;
  }
  get isIdle(): boolean {
    return this.#calls.count === 0 && this.#local.isIdle && this.active === 0 && this.queued === 0;
  }
  /**
   * Keeps the process up for the key's slots given back later (releases-due.ts): a script's last
   * `await client.budget.whenIdle()` drains them, a fetch given up on's at its bound at the latest.
   */
  whenIdle(): Promise<void> {
    return drained(this.#idle());
  }
  async #idle(): Promise<void> {
    while (!this.isIdle) {
      await this.#calls.whenIdle();
      await this.#local.whenIdle();
      if (this.#budget instanceof InProcessBudget) await this.#budget.whenIdle(this.#id);
      else if (!this.isIdle) await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
