// docs/gateway-protocol.md §2.5 (the key's slots, as one client sees them).
import { InProcessBudget } from './in-process-budget';
import type { ConcurrencyBudgetState, KeyBudget } from './key-budget';
import type { Semaphore } from './semaphore';

/** One client's view: its own `maxConcurrency` queue plus the key's count in the budget. */
export class ClientBudgetView implements ConcurrencyBudgetState {
  readonly #local: Semaphore;
  readonly #budget: KeyBudget | undefined;
  readonly #id: string;
  readonly limit: number;

  constructor(local: Semaphore, budget: KeyBudget | undefined, id: string, limit: number) {
    this.#local = local;
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
  get isIdle(): boolean {
    return this.#local.isIdle && this.active === 0 && this.queued === 0;
  }
  async whenIdle(): Promise<void> {
    while (!this.isIdle) {
      await this.#local.whenIdle();
      if (this.#budget instanceof InProcessBudget) await this.#budget.whenIdle(this.#id);
      else if (!this.isIdle) await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
