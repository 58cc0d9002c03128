// docs/gateway-protocol.md §4.7 (failover: the route a chat call took, its skips and its hops).

/**
 * Core's outcomes of steered chat calls, as plain data: each row a situation on the emulator's
 * default scenario (its faults, the call's model and steering) and what `@infergate/core` makes
 * of it, the route of the answer or the error. Core's own test checks every row against
 * `chat`/`chatStream` (packages/core/test/core-outcomes.emulator.test.ts), so the table cannot
 * drift from core; the adapters' tests run the rows through their frameworks and check only how
 * they map the outcome. Types are written out here: the kit does not depend on core.
 */

import type { FaultRule } from '../faults';

/** Core's `GatewayErrorCode`: the gateway's codes (the emulator's `GatewayErrorCode`) and core's own. */
export type CoreErrorCode = string;

/** Why a model was left out before any request, as core's `ModelSkipReason`. */
export type CoreSkipReason = 'not_in_catalog' | 'missing_capability' | 'circuit_open';

/** Why a listed model was put behind one listed after it, as core's `DeferReason`. */
export type CoreDeferReason = 'full' | 'offline' | 'not_in_catalog' | 'fails_often';

/** A step of a route, as core's `ChatRouteHop` (`reason` of `failed`: core's `FailoverReason`). */
export type CoreOutcomeHop = { model: string } & (
  | { outcome: 'answered' | 'lost' }
  | { outcome: 'skipped'; reason: CoreSkipReason }
  | { outcome: 'deferred'; reason: CoreDeferReason }
  | { outcome: 'failed'; reason: string }
  | { outcome: 'ended'; code: CoreErrorCode }
);

/** The route of a failed call (core's `FailedChatRoute`). */
export interface CoreOutcomeFailedRoute {
  requested: string[];
  hops: CoreOutcomeHop[];
}

/** The route of an answer (core's `ChatRoute`). */
export interface CoreOutcomeRoute extends CoreOutcomeFailedRoute {
  answeredBy: string;
}

/** The call's steering options, as core's call options (each adapter passes them per call). */
export interface CoreOutcomeSteering {
  fallbackModels?: string[];
  firstChunkTimeoutMs?: number;
  chunkTimeoutMs?: number;
  hedge?: { afterMs: number; maxExtra?: number };
}

/** The situation's error, as core's `GatewayError` carries it. */
export interface CoreOutcomeError {
  code: CoreErrorCode;
  route: CoreOutcomeFailedRoute;
  /** The models left out before any request (`no_model_can_serve`), without their `detail`. */
  skipped?: { model: string; reason: string }[];
  /** Which stall limit ended it (`timeout` of a stall). */
  stall?: { phase: 'first-chunk' | 'between-chunks'; limitMs: number };
  /** Whether a caller that waits at most the default Retry-After limit may retry it. */
  retryable: boolean;
}

export interface CoreOutcome {
  /** The situation, in words (a test's name). */
  name: string;
  /** Faults injected into a fresh emulator of the default scenario before the calls. */
  faults: FaultRule[];
  /** The call's model. */
  model: string;
  /** The call offers one function tool (`weather`, parameters `{ city: string }`). */
  tools?: boolean;
  steering: CoreOutcomeSteering;
  /** Client (provider, model) option: circuit breakers. Off (`false`) when absent. */
  circuitBreaker?: { failures: number; cooldownMs: number };
  /** The same call made this many times first, their outcomes not checked (a breaker, a catalog). */
  callsBefore?: number;
  /** Core's entry points the situation holds for: `chat` (generate, invoke), `chatStream` (stream). */
  entries?: readonly ('chat' | 'chatStream')[];
  /** What core produces: the answer's route, or the error (of the call, or of its stream). */
  outcome: { route: CoreOutcomeRoute } | { error: CoreOutcomeError };
}

/** Far longer than any test: a stall the client must cut, never one that ends by itself. */
const FOREVER = 60_000;
/** An hour: a wait on this Retry-After could never end the test. */
const busy = (model: string): FaultRule => ({ fault: 'model_busy', model, retryAfter: 3600 });
/** A first-chunk limit a healthy model meets, also on a loaded machine (stalls last FOREVER). */
const HEALTHY_WITHIN = 300;

const G = 'community/general';
const S = 'community/streamer';
const T = 'community/tools';
const P = 'community/plain';
const U = 'community/unknown';

/** Core's answer: the `hops` before it, then `answerer` answered. */
function answered(requested: string[], ...before: CoreOutcomeHop[]): CoreOutcome['outcome'] {
  const answerer = requested.at(-1) ?? '';
  const hops: CoreOutcomeHop[] = [...before, { model: answerer, outcome: 'answered' }];
  return { route: { requested, hops, answeredBy: answerer } };
}
const failed = (model: string, reason: string): CoreOutcomeHop => ({
  model,
  outcome: 'failed',
  reason,
});
const skipped = (model: string, reason: CoreSkipReason): CoreOutcomeHop => ({
  model,
  outcome: 'skipped',
  reason,
});
const deferred = (model: string, reason: CoreDeferReason): CoreOutcomeHop => ({
  model,
  outcome: 'deferred',
  reason,
});
const ended = (model: string, code: string): CoreOutcomeHop => ({ model, outcome: 'ended', code });

/** A call of `model` steered by `steering`, with `faults` injected first. */
const on = (model: string, steering: CoreOutcomeSteering, ...faults: FaultRule[]) => ({
  model,
  steering,
  faults,
});
/** The same, the call offering a tool. */
const withTools = (model: string, steering: CoreOutcomeSteering, ...faults: FaultRule[]) => ({
  ...on(model, steering, ...faults),
  tools: true,
});
const offline = (model: string): FaultRule => ({ fault: 'model_offline', model });
const silent = (model: string): FaultRule => ({ fault: 'stall_first_chunk', model, ms: FOREVER });

export const CORE_OUTCOMES: readonly CoreOutcome[] = [
  {
    name: 'a busy first model is answered by the second, without waiting its Retry-After',
    ...on(G, { fallbackModels: [S] }, busy(G)),
    outcome: answered([G, S], failed(G, 'model_busy')),
  },
  {
    name: 'a model that went offline fails over at once',
    ...on(G, { fallbackModels: [S] }, offline(G)),
    outcome: answered([G, S], failed(G, 'provider_unavailable')),
  },
  {
    name: 'a model that went offline is then skipped from the refreshed catalog',
    ...on(G, { fallbackModels: [S] }, offline(G)),
    callsBefore: 1,
    outcome: answered([G, S], skipped(G, 'not_in_catalog')),
  },
  {
    name: 'an own model the catalog does not list is put behind the fallback, and not tried',
    ...on('my/laptop-model', { fallbackModels: [G] }),
    outcome: answered(['my/laptop-model', G], deferred('my/laptop-model', 'not_in_catalog')),
  },
  {
    name: 'a fallback lacking tools is skipped without a request',
    ...withTools(G, { fallbackModels: [S, T] }, busy(G)),
    outcome: answered([G, S, T], skipped(S, 'missing_capability'), failed(G, 'model_busy')),
  },
  {
    name: 'a first model lacking tools is skipped, not refused, when a fallback has them',
    ...withTools(P, { fallbackModels: [T] }),
    outcome: answered([P, T], skipped(P, 'missing_capability')),
  },
  {
    name: 'a stall before the first chunk fails over at once',
    ...on(G, { fallbackModels: [S], firstChunkTimeoutMs: HEALTHY_WITHIN }, silent(G)),
    outcome: answered([G, S], failed(G, 'first_chunk_stall')),
  },
  {
    name: 'a hedge to the next model wins over a first model that stays silent',
    ...on(G, { fallbackModels: [S], hedge: { afterMs: 50, maxExtra: 1 } }, silent(G)),
    outcome: answered([G, S], { model: G, outcome: 'lost' }),
  },
  {
    name: 'a model whose breaker opened is skipped without a request',
    ...on(T, { fallbackModels: [S] }, { fault: 'bad_gateway', model: T }),
    // A cooldown no test outlasts: the breaker is still open for the checked call.
    circuitBreaker: { failures: 2, cooldownMs: FOREVER },
    callsBefore: 2,
    outcome: answered([T, S], skipped(T, 'circuit_open')),
  },
  {
    name: 'no listed model can serve: refused before any request, naming every model',
    ...withTools(P, { fallbackModels: [S, U] }),
    outcome: {
      error: {
        code: 'no_model_can_serve',
        route: {
          requested: [P, S, U],
          hops: [
            skipped(P, 'missing_capability'),
            skipped(S, 'missing_capability'),
            skipped(U, 'not_in_catalog'),
          ],
        },
        skipped: [
          { model: P, reason: 'missing_capability' },
          { model: S, reason: 'missing_capability' },
          { model: U, reason: 'not_in_catalog' },
        ],
        retryable: false,
      },
    },
  },
  {
    name: "every listed model busy: the last failure's code, every hop in the route",
    ...on(G, { fallbackModels: [T] }, busy(G), busy(T)),
    outcome: {
      error: {
        code: 'model_busy',
        route: { requested: [G, T], hops: [failed(G, 'model_busy'), failed(T, 'model_busy')] },
        retryable: false,
      },
    },
  },
  {
    name: "a caller error on the first model ends the walk: the route ends with that hop's code",
    ...on(G, { fallbackModels: [S] }, { fault: 'upstream_json', model: G }),
    outcome: {
      error: {
        code: 'upstream_error',
        route: { requested: [G, S], hops: [ended(G, 'upstream_error')] },
        retryable: false,
      },
    },
  },
  {
    name: 'a stall mid-stream fails the stream with timeout: no failover once content was handed over',
    ...on(
      G,
      { fallbackModels: [S], chunkTimeoutMs: 50 },
      { fault: 'stall_stream', model: G, afterChunks: 2, ms: FOREVER },
    ),
    entries: ['chatStream'],
    outcome: {
      error: {
        code: 'timeout',
        route: { requested: [G, S], hops: [ended(G, 'timeout')] },
        stall: { phase: 'between-chunks', limitMs: 50 },
        // Content was handed over: a retry would repeat it.
        retryable: false,
      },
    },
  },
];

/** The rows that hold for `entry`. */
export function coreOutcomesOf(entry: 'chat' | 'chatStream'): CoreOutcome[] {
  return CORE_OUTCOMES.filter((row) => row.entries?.includes(entry) ?? true);
}
