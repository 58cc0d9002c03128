// docs/gateway-protocol.md §2.5 (4 requests at once per key), §10.2 (codes and statuses).
import { authenticate, type Caller } from './authenticate';
import { chooseFault } from './choose-fault';
import {
  createCounters,
  type EmulatorCounters,
  type EndpointName,
  InflightTracker,
  resetCounters,
} from './counters';
import { type FaultRule, faultRuleProblem, startRuleClock } from './faults';
import { answerLikeFetch } from './fetch-abort';
import { errorResponse, GatewayRefusal } from './gateway-error';
import { HeldAnswers, type HoldOptions } from './held-answers';
import { resolveChatModel, takeModelOffline } from './model-access';
import { Occupancy, RequestHold } from './occupancy';
import { MAX_BODY_BYTES, readBodyCapped } from './read-body';
import { type ParsedBody, parseBody, type RequestContext } from './request-context';
import { resolveScenario } from './resolve-scenario';
import { dispatch, notFound, routeOf, wrongMethod } from './routes';
import type { KeySettings, ModelSpec, Scenario, ScenarioInput } from './scenario';
import { nextLatency, waitBeforeHeaders } from './timing';
import { ConnectionDropped, earlyFaultAnswer, truncateJsonBody } from './upstream-faults';

/** A local inference gateway behind a WHATWG fetch handler. */
export interface Emulator {
  /**
   * Answers one request; the path must contain `/v1/` (any origin, any prefix before it: its HTTP
   * server instead takes only the exact `/v1/...` path). Takes a `Request`, or the
   * same arguments as the global `fetch`, so it can be passed wherever a fetch function goes.
   */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Live counters (see `EmulatorCounters`). */
  readonly counters: EmulatorCounters;
  resetCounters(): void;
  /**
   * Adds a fault rule at run time (after the scenario's rules); its `afterMs` / `forMs` count from
   * now. Throws a `TypeError` for an unknown fault or field.
   */
  injectFault(rule: FaultRule): void;
  /**
   * Removes the rules added by `injectFault` (the scenario's `faults` stay) and undoes what
   * run-time faults changed: a model an injected or `X-Emulator-Fault` `model_offline` took
   * offline is back online.
   */
  clearFaults(): void;
  /** The resolved scenario; mutable (tests may flip availability). */
  scenario: Scenario;
  /**
   * Calls `listener` after each change of `counters` (a request in, a slot back, a stream
   * cancelled, a reset), so a test can wait for a state instead of polling; returns the unsubscribe.
   */
  onChange(listener: () => void): () => void;
  /**
   * Holds the answers of `endpoint` (chat completions by default) from now on: each request the
   * gateway accepts waits before its headers (after its latency and its checks: a refusal such as
   * `model_busy` comes at once), in flight and holding its slots, until the returned function is
   * called, it is aborted or its `requestTimeoutMs` passes (504). With `faults: true`, a request
   * an injected fault answers before its headers (a 429, a 5xx, a dropped connection) is held
   * the same way before that answer. For tests: hold, wait for the state, release; no latency
   * long enough for a loaded machine. Holds on different endpoints are independent.
   */
  holdAnswers(endpoint?: EndpointName, options?: HoldOptions): () => void;
}

/** One authenticated request of a known route, while it holds its key's slot. */
interface Admitted extends Caller {
  scenario: Scenario;
  request: Request;
  endpoint: EndpointName;
  hold: RequestHold;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** The `model` a parsed JSON body names, if any. */
function requestedModel(parsed: ParsedBody): unknown {
  return parsed.ok ? (parsed.value as { model?: unknown } | null)?.model : undefined;
}

/** The answer to what a request's handling threw; a dropped connection or an abort rethrows. */
function failureResponse(
  error: unknown,
  counters: EmulatorCounters,
  changed: () => void,
): Response {
  if (error instanceof GatewayRefusal) {
    if (error.code === 'client_concurrency_exceeded') {
      counters.concurrencyRejections += 1;
      changed();
    }
    return errorResponse(error);
  }
  if (error instanceof ConnectionDropped || isAbortError(error)) throw error;
  // A bug or a broken scenario: answer visibly instead of looking like a network failure.
  return new Response(`infergate emulator internal error: ${String(error)}`, {
    status: 500,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}

/**
 * Answers requests for one emulator. A request goes: routing (`routes.ts`), the key
 * (`authenticate.ts`), the key's concurrency (`InflightTracker`), the body (`read-body.ts`), fault
 * selection (`choose-fault.ts`), the model and service occupancy (`occupancy.ts`), latency and
 * pre-header faults (`upstream-faults.ts`), then the endpoint's handler.
 */
class RequestHandler {
  readonly #scenario: () => Scenario;
  readonly #counters: EmulatorCounters;
  readonly #runtimeFaults: FaultRule[];
  /** Entries of models run-time faults took offline (`clearFaults()` puts them back online). */
  readonly #takenOffline: Set<ModelSpec>;
  readonly #tracker: InflightTracker;
  readonly #occupancy = new Occupancy();
  readonly held: HeldAnswers;
  readonly #changed: () => void;
  #sequence = 0;

  constructor(
    scenario: () => Scenario,
    counters: EmulatorCounters,
    runtimeFaults: FaultRule[],
    takenOffline: Set<ModelSpec>,
    changed: () => void,
  ) {
    this.#scenario = scenario;
    this.#counters = counters;
    this.#runtimeFaults = runtimeFaults;
    this.#takenOffline = takenOffline;
    this.#changed = changed;
    this.#tracker = new InflightTracker(counters, changed);
    this.held = new HeldAnswers(counters, changed);
  }

  async handle(request: Request, exactPath = false): Promise<Response> {
    const counters = this.#counters;
    const url = new URL(request.url);
    const route = routeOf(url.pathname, exactPath);
    if (route) counters.requests[route.endpoint] += 1;
    this.#changed();
    const scenario = this.#scenario();
    // The key first, on any path and before the body is read: without one, a request costs nothing.
    const caller = await authenticate(request, scenario);
    if (caller instanceof Response) return caller;
    if (!route) return notFound(request.method, url.pathname);
    if (request.method !== route.method) return wrongMethod(request, route, url.pathname);
    if (this.#tracker.current(caller.apiKey) >= scenario.maxConcurrentPerKey) {
      counters.concurrencyRejections += 1;
      this.#changed();
      return errorResponse(
        new GatewayRefusal(
          'client_concurrency_exceeded',
          `This key already runs ${scenario.maxConcurrentPerKey} requests, its limit`,
          { retryAfter: scenario.retryAfterSeconds },
        ),
      );
    }
    const hold = new RequestHold(this.#tracker.acquire(caller.apiKey));
    try {
      return await this.#serve({ ...caller, scenario, request, endpoint: route.endpoint, hold });
    } catch (error) {
      return failureResponse(error, counters, this.#changed);
    } finally {
      hold.end();
    }
  }

  /** Reads the body, picks the fault, occupies the model, waits, then answers. */
  async #serve(admitted: Admitted): Promise<Response> {
    const { scenario, request, endpoint, hold } = admitted;
    const deadline = Date.now() + scenario.requestTimeoutMs;
    const bytes =
      request.method === 'POST'
        ? await readBodyCapped(request, MAX_BODY_BYTES, deadline)
        : new Uint8Array();
    let parsed: ParsedBody | undefined;
    const body = () => {
      parsed ??= parseBody(bytes);
      return parsed;
    };
    const scenarioRules = scenario.faults.length;
    const fault = chooseFault(request, endpoint, admitted.apiKey, body, [
      scenario.faults,
      this.#runtimeFaults,
    ]);
    if (fault?.fault === 'model_offline') {
      const taken = takeModelOffline(scenario, requestedModel(body()));
      // A scenario rule is spent (removed) once applied: what it did stays, as the scenario's
      // state. An injected rule's or a header's is undone by `clearFaults()`.
      const fromScenario = scenario.faults.length < scenarioRules;
      if (taken !== undefined && !fromScenario) this.#takenOffline.add(taken);
    }
    const occupy = (resource: string) => {
      const { running, release } = this.#occupancy.occupy(resource);
      hold.add(release);
      return running;
    };
    // A chat request occupies its model from arrival to answer: during the scripted latency and
    // a `slow_headers` fault too, so `/models` `inflight` and `model_busy` count it.
    const arrived =
      endpoint === 'chat' ? this.#occupyChatModel(body(), admitted.key, occupy) : undefined;
    await waitBeforeHeaders(nextLatency(scenario.latencyMs), deadline, request.signal);
    if (fault?.fault === 'slow_headers') {
      await waitBeforeHeaders(fault.ms, deadline, request.signal);
    }
    const early = fault && earlyFaultAnswer(fault);
    if (early) {
      // A hold with `faults` keeps this answer too, so a test lets it out when its client is ready.
      await this.held.wait(endpoint, admitted.apiKey, deadline, request.signal, {
        fault: true,
      });
      if (fault?.fault === 'rate_limit') {
        this.#counters.concurrencyRejections += 1;
        this.#changed();
      }
      return early();
    }
    const ctx: RequestContext = {
      scenario,
      apiKey: admitted.apiKey,
      key: admitted.key,
      request,
      bytes,
      body,
      fault,
      deadline,
      signal: request.signal,
      takeRelease: () => {
        const release = hold.takeRelease();
        return (cancelled = false) => {
          if (cancelled) {
            this.#counters.streamsCancelled += 1;
            this.#changed();
          }
          release();
        };
      },
      nextSequence: () => {
        this.#sequence += 1;
        return this.#sequence;
      },
      occupy: (resource) => (arrived?.resource === resource ? arrived.running : occupy(resource)),
      waitWhileHeld: () => this.held.wait(endpoint, admitted.apiKey, deadline, request.signal),
    };
    const inflight = (resource: string) => this.#occupancy.inflight(resource);
    const response = await dispatch(endpoint, ctx, inflight);
    return fault?.fault === 'truncated_json' ? await truncateJsonBody(response) : response;
  }

  /** Occupies the model a chat body names, when it names one this key may use. */
  #occupyChatModel(
    parsed: ParsedBody,
    key: KeySettings,
    occupy: (resource: string) => number,
  ): { resource: string; running: number } | undefined {
    const model = requestedModel(parsed);
    if (typeof model !== 'string') return undefined;
    let served: string;
    try {
      served = resolveChatModel(this.#scenario(), key, model).served;
    } catch {
      return undefined; // refused later by the endpoint, with its own error
    }
    const resource = `model:${served}`;
    return { resource, running: occupy(resource) };
  }
}

/** Each emulator's fetch handler that routes only exact paths (`/v1/models`), for the server. */
const exactPathHandlers = new WeakMap<Emulator, (request: Request) => Promise<Response>>();

/**
 * The emulator's answer to a request on its HTTP server, where the path must be the endpoint's
 * own (`/v1/models`; not `/openai/v1/models`, not `/v1/models/`): a client with a wrong base URL
 * gets 404 there, as from a real gateway. An emulator not made by `createEmulator` answers as its
 * `fetch` does.
 */
export function answerExactPath(emulator: Emulator, request: Request): Promise<Response> {
  return exactPathHandlers.get(emulator)?.(request) ?? emulator.fetch(request);
}

/** Creates an emulator from a scenario (deep-merged over `defaultScenario()`). */
export function createEmulator(input?: ScenarioInput): Emulator {
  const counters = createCounters();
  const runtimeFaults: FaultRule[] = [];
  const takenOffline = new Set<ModelSpec>();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const emulator: Emulator = {
    scenario: resolveScenario(input),
    counters,
    resetCounters: () => {
      resetCounters(counters);
      changed();
    },
    onChange: (listener) => {
      // Wrapped, so the same function subscribed twice is two subscriptions.
      const entry = () => listener();
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
    injectFault: (rule) => {
      const problem = faultRuleProblem(rule);
      if (problem) throw new TypeError(`injectFault: ${problem}`);
      const copy = { ...rule };
      startRuleClock(copy);
      runtimeFaults.push(copy);
    },
    clearFaults: () => {
      runtimeFaults.length = 0;
      // The entries themselves: a scenario the test swapped in since is left as it is.
      for (const spec of takenOffline) spec.online = true;
      takenOffline.clear();
    },
    holdAnswers: (endpoint = 'chat', options) => handler.held.hold(endpoint, options),
    fetch: async (input, init) => {
      const request =
        input instanceof Request && init === undefined ? input : new Request(input, init);
      return answerLikeFetch(request.signal, handler.handle(request));
    },
  };
  exactPathHandlers.set(emulator, (request) =>
    answerLikeFetch(request.signal, handler.handle(request, true)),
  );
  // The scenario's rules start their `afterMs` / `forMs` clocks with the emulator.
  for (const rule of emulator.scenario.faults) startRuleClock(rule);
  const handler = new RequestHandler(
    () => emulator.scenario,
    counters,
    runtimeFaults,
    takenOffline,
    changed,
  );
  return emulator;
}
