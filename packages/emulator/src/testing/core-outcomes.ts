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

/** A step of a route, as core's `ChatRouteHop`. */
export type CoreOutcomeHop =
  | {
      model: string;
      outcome: 'skipped';
      reason: 'not_in_catalog' | 'missing_capability' | 'circuit_open';
    }
  | { model: string; outcome: 'failed'; reason: string }
  | { model: string; outcome: 'answered' }
  | { model: string; outcome: 'lost' }
  | { model: string; outcome: 'ended'; code: CoreErrorCode };

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
  entries: readonly ('chat' | 'chatStream')[];
  /** What core produces: the answer's route, or the error (of the call, or of its stream). */
  outcome: { route: CoreOutcomeRoute } | { error: CoreOutcomeError };
}

const BOTH = ['chat', 'chatStream'] as const;
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

export const CORE_OUTCOMES: readonly CoreOutcome[] = [
  {
    name: 'a busy first model is answered by the second, without waiting its Retry-After',
    faults: [busy(G)],
    model: G,
    steering: { fallbackModels: [S] },
    entries: BOTH,
    outcome: {
      route: {
        requested: [G, S],
        hops: [
          { model: G, outcome: 'failed', reason: 'model_busy' },
          { model: S, outcome: 'answered' },
        ],
        answeredBy: S,
      },
    },
  },
  {
    name: 'a model that went offline fails over at once',
    faults: [{ fault: 'model_offline', model: G }],
    model: G,
    steering: { fallbackModels: [S] },
    entries: BOTH,
    outcome: {
      route: {
        requested: [G, S],
        hops: [
          { model: G, outcome: 'failed', reason: 'provider_unavailable' },
          { model: S, outcome: 'answered' },
        ],
        answeredBy: S,
      },
    },
  },
  {
    name: 'a model that went offline is then skipped from the refreshed catalog',
    faults: [{ fault: 'model_offline', model: G }],
    model: G,
    steering: { fallbackModels: [S] },
    callsBefore: 1,
    entries: BOTH,
    outcome: {
      route: {
        requested: [G, S],
        hops: [
          { model: G, outcome: 'skipped', reason: 'not_in_catalog' },
          { model: S, outcome: 'answered' },
        ],
        answeredBy: S,
      },
    },
  },
  {
    name: 'a fallback lacking tools is skipped without a request',
    faults: [busy(G)],
    model: G,
    tools: true,
    steering: { fallbackModels: [S, T] },
    entries: BOTH,
    outcome: {
      route: {
        requested: [G, S, T],
        hops: [
          { model: S, outcome: 'skipped', reason: 'missing_capability' },
          { model: G, outcome: 'failed', reason: 'model_busy' },
          { model: T, outcome: 'answered' },
        ],
        answeredBy: T,
      },
    },
  },
  {
    name: 'a first model lacking tools is skipped, not refused, when a fallback has them',
    faults: [],
    model: P,
    tools: true,
    steering: { fallbackModels: [T] },
    entries: BOTH,
    outcome: {
      route: {
        requested: [P, T],
        hops: [
          { model: P, outcome: 'skipped', reason: 'missing_capability' },
          { model: T, outcome: 'answered' },
        ],
        answeredBy: T,
      },
    },
  },
  {
    name: 'a stall before the first chunk fails over at once',
    faults: [{ fault: 'stall_first_chunk', model: G, ms: FOREVER }],
    model: G,
    steering: { fallbackModels: [S], firstChunkTimeoutMs: HEALTHY_WITHIN },
    entries: BOTH,
    outcome: {
      route: {
        requested: [G, S],
        hops: [
          { model: G, outcome: 'failed', reason: 'first_chunk_stall' },
          { model: S, outcome: 'answered' },
        ],
        answeredBy: S,
      },
    },
  },
  {
    name: 'a hedge to the next model wins over a first model that stays silent',
    faults: [{ fault: 'stall_first_chunk', model: G, ms: FOREVER }],
    model: G,
    steering: { fallbackModels: [S], hedge: { afterMs: 50, maxExtra: 1 } },
    entries: BOTH,
    outcome: {
      route: {
        requested: [G, S],
        hops: [
          { model: G, outcome: 'lost' },
          { model: S, outcome: 'answered' },
        ],
        answeredBy: S,
      },
    },
  },
  {
    name: 'a model whose breaker opened is skipped without a request',
    faults: [{ fault: 'bad_gateway', model: T }],
    model: T,
    steering: { fallbackModels: [S] },
    // A cooldown no test outlasts: the breaker is still open for the checked call.
    circuitBreaker: { failures: 2, cooldownMs: FOREVER },
    callsBefore: 2,
    entries: BOTH,
    outcome: {
      route: {
        requested: [T, S],
        hops: [
          { model: T, outcome: 'skipped', reason: 'circuit_open' },
          { model: S, outcome: 'answered' },
        ],
        answeredBy: S,
      },
    },
  },
  {
    name: 'no listed model can serve: refused before any request, naming every model',
    faults: [],
    model: P,
    tools: true,
    steering: { fallbackModels: [S, 'community/unknown'] },
    entries: BOTH,
    outcome: {
      error: {
        code: 'no_model_can_serve',
        route: {
          requested: [P, S, 'community/unknown'],
          hops: [
            { model: P, outcome: 'skipped', reason: 'missing_capability' },
            { model: S, outcome: 'skipped', reason: 'missing_capability' },
            { model: 'community/unknown', outcome: 'skipped', reason: 'not_in_catalog' },
          ],
        },
        skipped: [
          { model: P, reason: 'missing_capability' },
          { model: S, reason: 'missing_capability' },
          { model: 'community/unknown', reason: 'not_in_catalog' },
        ],
        retryable: false,
      },
    },
  },
  {
    name: "every listed model busy: the last failure's code, every hop in the route",
    faults: [busy(G), busy(T)],
    model: G,
    steering: { fallbackModels: [T] },
    entries: BOTH,
    outcome: {
      error: {
        code: 'model_busy',
        route: {
          requested: [G, T],
          hops: [
            { model: G, outcome: 'failed', reason: 'model_busy' },
            { model: T, outcome: 'failed', reason: 'model_busy' },
          ],
        },
        retryable: false,
      },
    },
  },
  {
    name: "a caller error on the first model ends the walk: the route ends with that hop's code",
    faults: [{ fault: 'upstream_json', model: G }],
    model: G,
    steering: { fallbackModels: [S] },
    entries: BOTH,
    outcome: {
      error: {
        code: 'upstream_error',
        route: {
          requested: [G, S],
          hops: [{ model: G, outcome: 'ended', code: 'upstream_error' }],
        },
        retryable: false,
      },
    },
  },
  {
    name: 'a stall mid-stream fails the stream with timeout: no failover once content was handed over',
    faults: [{ fault: 'stall_stream', model: G, afterChunks: 2, ms: FOREVER }],
    model: G,
    steering: { fallbackModels: [S], chunkTimeoutMs: 50 },
    entries: ['chatStream'],
    outcome: {
      error: {
        code: 'timeout',
        route: { requested: [G, S], hops: [{ model: G, outcome: 'ended', code: 'timeout' }] },
        stall: { phase: 'between-chunks', limitMs: 50 },
        // Content was handed over: a retry would repeat it.
        retryable: false,
      },
    },
  },
];

/** The rows that hold for `entry`. */
export function coreOutcomesOf(entry: 'chat' | 'chatStream'): CoreOutcome[] {
  return CORE_OUTCOMES.filter((row) => row.entries.includes(entry));
}
