// docs/gateway-protocol.md §2.5 (the key's 4 slots, shared by every client in the process).
import {
  type BudgetAcquireRequest,
  type BudgetLease,
  type KeyBudget,
  type ReleaseSlot,
  TRY_ACQUIRE,
} from './key-budget';
import { realmValue } from './realm';
import { createSemaphore } from './runtime-semaphore';
import type { Semaphore } from './semaphore';

/**
 * The default `KeyBudget`: counts slots per id in this realm, FIFO per id (a call `ahead` first).
 * It keeps a semaphore
 * only for the ids with a slot held or a call waiting: an id goes idle (its last slot given back,
 * its last waiter served or gone) and is forgotten, so a server that makes a client per request
 * with each user's key keeps no trace of the keys at rest. Its memory is bounded by the calls in
 * flight or queued, not by the keys ever seen (README, "Key budget and slot lifecycle").
 */
export class InProcessBudget implements KeyBudget {
  readonly #slots = new Map<string, Semaphore>();

  acquire(request: BudgetAcquireRequest): Promise<BudgetLease> {
    const slots = this.#slotsOf(request.id);
    const granted = slots.acquire(request.limit, request.signal, request.ahead === true);
    // Refused at once (an aborted signal): nothing holds or waits.
    this.#forgetIfIdle(request.id, slots);
    return granted.then((release) => ({ release }));
  }

  acquireIfFree(request: BudgetAcquireRequest): Promise<BudgetLease | undefined> {
    const release = this[TRY_ACQUIRE](request.id, request.limit);
    return Promise.resolve(release && { release });
  }

  [TRY_ACQUIRE](id: string, limit: number): ReleaseSlot | undefined {
    const slots = this.#slotsOf(id);
    const release = slots.tryAcquire(limit);
    this.#forgetIfIdle(id, slots);
    return release;
  }

  #slotsOf(id: string): Semaphore {
    let slots = this.#slots.get(id);
    if (!slots) {
      const created = createSemaphore({ onIdle: () => this.#forgetIfIdle(id, created) });
      slots = created;
      this.#slots.set(id, slots);
    }
    return slots;
  }

  /** Forgets `slots` once nothing holds or waits for them (a later call makes new ones). */
  #forgetIfIdle(id: string, slots: Semaphore): void {
    if (this.#slots.get(id) === slots && slots.isForgettable) this.#slots.delete(id);
  }

  /** The ids with a slot held or a call waiting (the ones the budget keeps a semaphore for). */
  get size(): number {
    return this.#slots.size;
  }

  state(id: string): { active: number; queued: number } | undefined {
    const slots = this.#slots.get(id);
    if (!slots) return { active: 0, queued: 0 };
    const state = { active: slots.active, queued: slots.queued };
    // Reading `active` may take back stale slots (request-bound mode): the id may be idle now.
    this.#forgetIfIdle(id, slots);
    return state;
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

/** The budget of clients created without `budget`: one per realm (budget/realm.ts). */
export function defaultBudget(): InProcessBudget {
  // Another copy of this package (the CJS build beside the ESM one) may have made it: its budget
  // is another class, but the same shape.
  return realmValue(
    'keyBudget',
    () => new InProcessBudget(),
    (budget) => typeof (budget as Partial<InProcessBudget>).acquire === 'function',
  );
}
