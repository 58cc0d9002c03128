// docs/gateway-protocol.md §2.5 (the key's 4 slots, shared by every client in the process).
import {
  type BudgetAcquireRequest,
  type BudgetLease,
  type KeyBudget,
  type ReleaseSlot,
  TRY_ACQUIRE,
} from './key-budget';
import { Semaphore } from './semaphore';

/** The default `KeyBudget`: counts slots per id in this realm, FIFO per id. */
export class InProcessBudget implements KeyBudget {
  readonly #slots = new Map<string, Semaphore>();

  acquire(request: BudgetAcquireRequest): Promise<BudgetLease> {
    return this.#slotsOf(request.id)
      .acquire(request.limit, request.signal)
      .then((release) => ({ release }));
  }

  [TRY_ACQUIRE](id: string, limit: number): ReleaseSlot | undefined {
    return this.#slotsOf(id).tryAcquire(limit);
  }

  #slotsOf(id: string): Semaphore {
    let slots = this.#slots.get(id);
    if (!slots) {
      slots = new Semaphore();
      this.#slots.set(id, slots);
    }
    return slots;
  }

  state(id: string): { active: number; queued: number } | undefined {
    const slots = this.#slots.get(id);
    return slots ? { active: slots.active, queued: slots.queued } : undefined;
  }

  /** Resolves when nothing of `id` is running or queued. */
  whenIdle(id: string): Promise<void> {
    return this.#slots.get(id)?.whenIdle() ?? Promise.resolve();
  }
}

/** A new in-process key budget (share one object between clients to share their keys' slots). */
export function createInProcessBudget(): KeyBudget {
  return new InProcessBudget();
}

// Kept on globalThis so that an ESM and a CJS copy of this package in one process share budgets.
const DEFAULT_BUDGET = Symbol.for('@infergate/core.keyBudget');

/** The budget of clients created without `budget`: one per realm. */
export function defaultBudget(): InProcessBudget {
  const holder = globalThis as unknown as Record<symbol, InProcessBudget | undefined>;
  // Another copy of this package (the CJS build beside the ESM one, or a second bundle of a
  // framework app) may have set it first: its budget is another class, but the same shape.
  let budget = holder[DEFAULT_BUDGET];
  if (typeof budget?.acquire !== 'function') {
    budget = new InProcessBudget();
    Object.defineProperty(globalThis, DEFAULT_BUDGET, { value: budget, enumerable: false });
  }
  return budget as InProcessBudget;
}
