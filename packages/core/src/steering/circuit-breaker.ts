// docs/gateway-protocol.md §4.7 (a listed model that keeps failing is planned around for a while).
import { realmValue } from '../budget/realm';
import { monotonicNow } from '../call/monotonic-clock';
import type { GatewayError } from '../errors/errors';
import type { SkippedModel } from '../protocol/chat-route';
import type { CircuitBreakerOptions } from './steering-options';

/**
 * One model's breaker, per (budget id, model): plain data on the realm's shared state, so that
 * every copy of core in the realm reads and writes the same (budget/realm.ts).
 */
interface Breaker {
  /** Failures in a row since the last success (or trip). */
  failures: number;
  /** Trips in a row (each doubles the cooldown, up to its cap). */
  trips: number;
  /** Monotonic ms until which the breaker is open (0: closed). */
  openUntil: number;
  /** Monotonic ms until which the probe let through after the cooldown has the model to itself. */
  probeUntil: number;
}

const breakers = () => realmValue('breakers', () => new Map<string, Breaker>());

const keyOf = (budgetId: string, model: string) => `${budgetId}\n${model}`;

/**
 * A failure that says the model is unwell, not the caller's request: a 502, 503 or 504, a
 * provider's error, a stall (a `timeout` with `stall`). Never a 4xx the caller caused, a busy
 * model (429: full, not broken), the key's limit, or the call's own deadline or abort.
 */
export function isModelFailure(error: GatewayError): boolean {
  if (error.stall !== undefined) return true;
  const { code, status } = error;
  if (status !== undefined && status >= 502 && status <= 504) return true;
  return (
    code === 'provider_unavailable' ||
    code === 'all_providers_failed' ||
    code === 'provider_request_failed' ||
    code === 'provider_protocol_error' ||
    code === 'request_timeout'
  );
}

/**
 * The breakers of the models of calls with `fallbackModels` (client option `circuitBreaker`, on by
 * default). A model that fails `failures` times in a row opens for a cooldown that doubles with
 * each trip in a row, up to `maxCooldownMs`: calls plan around it without sending (the route
 * shows it skipped, `circuit_open`). After the cooldown one call is let through as a probe; its
 * success closes the breaker, its failure opens it again for longer. A model that is the call's
 * only candidate is still tried: the caller asked for it. Kept per realm (every client on the key
 * and base URL sees the same), not shared across processes.
 */
export class CircuitBreakers {
  readonly #options: Required<CircuitBreakerOptions>;
  readonly #budgetId: string;

  constructor(options: Required<CircuitBreakerOptions>, budgetId: string) {
    this.#options = options;
    this.#budgetId = budgetId;
  }

  /**
   * Why `model` is left out of a plan now (`circuit_open`), or undefined: closed, its probe's turn
   * (taken by this call), or no other candidate left (`others`: the models still in the plan).
   */
  skip(model: string, others: readonly string[]): SkippedModel | undefined {
    const breaker = breakers().get(keyOf(this.#budgetId, model));
    if (breaker === undefined || breaker.openUntil === 0) return undefined;
    if (others.every((other) => other === model || this.#isOpen(other))) return undefined;
    const now = monotonicNow();
    if (now >= breaker.openUntil && now >= breaker.probeUntil) {
      // The cooldown is over: this call is the probe, alone until it reports or a cooldown passes.
      breaker.probeUntil = now + this.#options.cooldownMs;
      return undefined;
    }
    const waitMs = Math.ceil(Math.max(breaker.openUntil, breaker.probeUntil) - now);
    return {
      model,
      reason: 'circuit_open',
      detail: `Model "${model}" failed ${this.#options.failures} times in a row: its circuit breaker is open for ${waitMs} ms more`,
    };
  }

  #isOpen(model: string): boolean {
    const breaker = breakers().get(keyOf(this.#budgetId, model));
    return breaker !== undefined && breaker.openUntil !== 0;
  }

  /**
   * An attempt on `model` ended: `failure` undefined when it answered. Returns the cooldown when
   * this failure opened the breaker, for the call's events.
   */
  record(model: string, failure: GatewayError | undefined): number | undefined {
    const key = keyOf(this.#budgetId, model);
    const map = breakers();
    if (failure === undefined) {
      map.delete(key);
      return undefined;
    }
    if (!isModelFailure(failure)) return undefined;
    let breaker = map.get(key);
    if (breaker === undefined) {
      breaker = { failures: 0, trips: 0, openUntil: 0, probeUntil: 0 };
      map.set(key, breaker);
    }
    breaker.failures++;
    // A probe's failure opens it again at once; otherwise after `failures` in a row.
    const probing = breaker.openUntil !== 0;
    if (!probing && breaker.failures < this.#options.failures) return undefined;
    const { cooldownMs, maxCooldownMs } = this.#options;
    const waitMs = Math.min(maxCooldownMs, cooldownMs * 2 ** breaker.trips);
    breaker.trips++;
    breaker.failures = 0;
    breaker.openUntil = monotonicNow() + waitMs;
    breaker.probeUntil = 0;
    return waitMs;
  }
}
