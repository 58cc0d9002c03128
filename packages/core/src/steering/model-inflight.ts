// docs/gateway-protocol.md §4.7 (the order counts this realm's own calls in flight to a model, and
// knows which of them a catalog read counted).
import { realmValue } from '../budget/realm';
import { monotonicNow } from '../call/monotonic-clock';
import type { Catalog } from '../catalog/catalog';
import type { GatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import type {
  AnswerStatus,
  AttemptPolicy,
  AttemptRequest,
  NextAttempt,
} from '../http/attempt-policy';
import type { GatewayModel } from '../protocol/wire-types';

/**
 * Chat requests this realm has in flight, per (budget id, model): what the order by free capacity
 * adds to a catalog entry's `inflight`, a snapshot up to `catalogTtlMs` old that does not count
 * the calls sent since. Kept on the realm's shared state beside the default budget (budget/realm.ts),
 * so the ESM and the CJS copy of core count the same requests.
 */
let perBudgetCounts: Map<string, Map<string, number>> | undefined;
const counts = () =>
  (perBudgetCounts ??= realmValue(
    'modelInflightPerBudget',
    () => new Map<string, Map<string, number>>(),
  ));

/** A `GET /models` read under way: our requests per model that its answer may count. */
interface Watch {
  budgetId: string;
  ours: Map<string, number>;
}

/** The reads under way (usually none: counting a request is then one map update). */
let readsUnderWay: Set<Watch> | undefined;
const watches = () =>
  (readsUnderWay ??= realmValue('modelInflightWatches', () => new Set<Watch>()));

/** Chat requests in flight from this realm to `model` under the budget `budgetId`. */
export function modelInflight(budgetId: string, model: string): number {
  return counts().get(budgetId)?.get(model) ?? 0;
}

/**
 * `policy`, each of its attempts counted against the model it asks for while its slot is held (a
 * plain chat call's: the order of steered calls reads the count).
 */
export function countedPerModel(policy: AttemptPolicy, budgetId: string): AttemptPolicy {
  return new CountedPerModel(policy, budgetId);
}

class CountedPerModel implements AttemptPolicy {
  readonly #policy: AttemptPolicy;
  readonly #budgetId: string;
  /** The count of the attempt holding the call's slot (one at a time: it ends before the next). */
  #end: (() => void) | undefined;
  readonly accept: AttemptPolicy['accept'];
  readonly handedOver: AttemptPolicy['handedOver'];

  constructor(policy: AttemptPolicy, budgetId: string) {
    this.#policy = policy;
    this.#budgetId = budgetId;
    this.accept = policy.accept?.bind(policy);
    this.handedOver = policy.handedOver?.bind(policy);
  }

  nextAttempt(): number | undefined {
    return this.#policy.nextAttempt?.();
  }

  request(
    attempt: number,
    events: CallEvents | undefined,
    answer: Readonly<AnswerStatus>,
  ): AttemptRequest {
    const request = this.#policy.request(attempt, events, answer);
    const model = request.requestedModel;
    if (model !== undefined) this.#end = countModelInflight(this.#budgetId, model);
    return request;
  }

  released(request: AttemptRequest): void {
    this.#end?.();
    this.#end = undefined;
    this.#policy.released?.(request);
  }

  next(failure: GatewayError, waits: number, remainingMs: number): NextAttempt {
    return this.#policy.next(failure, waits, remainingMs);
  }

  failed(error: unknown): void {
    this.#policy.failed?.(error);
  }
}

/** Counts one more request to `model`; the returned function ends the count (once). */
export function countModelInflight(budgetId: string, model: string): () => void {
  const perBudget = counts();
  const counting = perBudget.get(budgetId) ?? new Map<string, number>();
  if (counting.size === 0) perBudget.set(budgetId, counting);
  const count = counting.get(model);
  // A model new to the map, the map full: the idle ones go (own-model ids are any string).
  if (count === undefined && counting.size >= IDLE_MODELS_KEPT) forgetIdle(counting);
  counting.set(model, (count ?? 0) + 1);
  const watching = watches();
  // (Usually none: no iterator made then.)
  if (watching.size > 0) {
    for (const watch of watching) {
      if (watch.budgetId === budgetId) watch.ours.set(model, (watch.ours.get(model) ?? 0) + 1);
    }
  }
  let counted = true;
  return () => {
    if (!counted) return;
    counted = false;
    // (A model's count stays, at 0: a map emptied and filled again on every call is rehashed
    // each time; IDLE_MODELS_KEPT bounds them. A budget's counts all at 0 are forgotten as an
    // empty map was.)
    counting.set(model, (counting.get(model) ?? 1) - 1);
    if (perBudget.size > IDLE_BUDGETS_KEPT && perBudget.get(budgetId) === counting) {
      if (allZero(counting)) perBudget.delete(budgetId);
    }
  };
}

function forgetIdle(counting: Map<string, number>): void {
  for (const [model, count] of counting) if (count === 0) counting.delete(model);
}

function allZero(counting: ReadonlyMap<string, number>): boolean {
  for (const count of counting.values()) if (count > 0) return false;
  return true;
}

/** How many budgets keep their counts while all are 0. */
export const IDLE_BUDGETS_KEPT = 32;

/** How many models a budget counts before it forgets those at 0 (when another one comes). */
export const IDLE_MODELS_KEPT = 64;

/**
 * Starts counting, for a `GET /models` read about to be sent, the requests under `budgetId` that
 * its `inflight` may include: those in flight now, and those sent before `stop()` (its answer
 * read). The gateway counted ours at some moment in between; subtracting these leaves at least
 * the others' (§4.7). `stop()` ends the count and returns it, per model.
 */
export function watchModelInflight(budgetId: string): () => ReadonlyMap<string, number> {
  const ours = new Map(counts().get(budgetId));
  const watch = { budgetId, ours };
  watches().add(watch);
  return () => {
    watches().delete(watch);
    return ours;
  };
}

/** Per models list read, this realm's requests per model its `inflight` may count. */
const oursAtRead = new WeakMap<readonly GatewayModel[], ReadonlyMap<string, number>>();

/**
 * Per models list read, when it was read (monotonic ms): a deferral for a snapshot's `inflight`
 * says how old that count is (defer-reason.ts).
 */
export const catalogReadAt = new WeakMap<readonly GatewayModel[], number>();

/**
 * Makes `catalog` record, for each `GET /models` read from now on, our requests its `inflight` may
 * count (model-inflight.ts): kept with the list, which calls planned on it hold after a newer read.
 */
export function watchCatalogReads(catalog: Catalog, budgetId: string): void {
  if (catalog.onModelsRead !== undefined) return;
  catalog.onModelsRead = () => {
    const stop = watchModelInflight(budgetId);
    return (list) => {
      const ours = stop();
      if (list === undefined) return;
      oursAtRead.set(list, ours);
      catalogReadAt.set(list, monotonicNow());
    };
  };
}

/** Others' requests a listed model's `inflight` counted: ours it may include taken off. */
export function othersInflight(
  list: readonly GatewayModel[],
  entry: GatewayModel | undefined,
  model: string,
): number {
  const inflight = typeof entry?.inflight === 'number' ? entry.inflight : 0;
  return Math.max(0, inflight - (oursAtRead.get(list)?.get(model) ?? 0));
}
