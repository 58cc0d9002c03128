// docs/gateway-protocol.md §2.5 (a call's deadline), §4.2 (the gate's catalog read is a request of
// the call, under its one deadline).
import type { CallOptions } from './call-options';
import { monotonicNow } from './monotonic-clock';
import { kindOf, refusal } from './option-groups';

/**
 * Where a call's options hold when its deadline started (monotonic ms): a symbol, so no public
 * option, no key the unknown-option check sees, yet kept by a spread of the options. A registered
 * one: an adapter on another copy of core (two installed versions, the ESM and the CJS build)
 * starts a deadline this copy reads.
 */
const DEADLINE_START: unique symbol = Symbol.for('@infergate/core.deadlineStart');

/** Call options that may carry their deadline's start (`withDeadlineStarted`). */
type MaybeStarted = { [DEADLINE_START]?: unknown };

/**
 * `options` with their deadline started now: every core call given them (an adapter's catalog
 * look-up, then its chat) ends when `timeoutMs` — else the client's `timeoutMs` — has passed since
 * now, and a timeout names that length. Without it each core call's deadline starts anew.
 */
export function withDeadlineStarted<T extends CallOptions>(options: T): T {
  return { ...options, [DEADLINE_START]: monotonicNow() };
}

/**
 * When the deadline of a call with these options started (`withDeadlineStarted`); undefined: it
 * starts with the call. A start that is no monotonic time already passed is refused.
 */
export function deadlineStartOf(options: object | undefined): number | undefined {
  const start = (options as MaybeStarted | undefined)?.[DEADLINE_START];
  if (start === undefined) return undefined;
  // (Monotonic times are ≥ 0; NaN fails both comparisons.)
  if (typeof start !== 'number' || !(start >= 0 && start <= monotonicNow())) {
    throw refusal('call option', 'deadline start', `must be a past time, got ${kindOf(start)}`);
  }
  return start;
}
