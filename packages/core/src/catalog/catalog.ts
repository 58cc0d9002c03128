// docs/gateway-protocol.md §3.1 (`GET /models`), §3.2 (`GET /capabilities`), §3.3 (caching).
import type { CallOptions } from '../call/call-options';
import { REQUEST_BOUND_IO, scopeOf } from '../call/call-scope';
import { monotonicNow } from '../call/monotonic-clock';
import { headerRecord } from '../call/option-groups';
import type { CallEvents } from '../events/call-events';
import type { Transport } from '../http/transport';
import { unusableAnswer } from '../http/unusable-answer';
import { ENDPOINTS } from '../protocol/endpoints';
import type { GatewayList, GatewayModel, GatewayService } from '../protocol/wire-types';
import { markFailedRead } from './failed-read';

interface Entry<T> {
  value: T;
  fetchedAt: number;
}

/** The models snapshot, with the ids looked up in it and not found (forgotten with it). */
interface ModelsEntry extends Entry<GatewayModel[]> {
  misses: Set<string>;
}

/** One shared look-up: cancelled when every caller waiting for it has left. */
interface Flight<T> {
  promise: Promise<T>;
  controller: AbortController;
  callers: number;
  settled: boolean;
}

/**
 * A cached, single-flight snapshot of `GET /models` and `GET /capabilities`: concurrent callers
 * share one request; entries live `ttlMs`; `invalidate()` forces the next read to fetch. Its
 * reads are steps of a client's calls, whose options were checked where the call began
 * (client.ts, chat-calls.ts): they are not checked again here.
 *
 * In request-bound runtimes (workerd, edge-runtime; see `REQUEST_BOUND_IO`) only the cached
 * answer is shared: each call that finds no fresh entry sends its own request. A shared look-up
 * would settle every waiting call's promise from the context of the request that started it;
 * workerd warns and cancels the continuation of a waiting request that has already ended (one
 * whose deadline passed while it waited).
 */
export class Catalog {
  readonly #transport: Transport;
  readonly #ttlMs: number;
  readonly #requestBound: boolean;
  #models: ModelsEntry | undefined;
  #services: Entry<GatewayService[]> | undefined;
  /** The shared reads in progress, by path and retry allowance (`#read`). */
  readonly #flights = new Map<string, Flight<unknown[]>>();
  #generation = 0;
  /**
   * Called as each `GET /models` read is sent; what it returns is called with the list once read
   * (undefined when the read failed). The steering module sets it, to count our requests that the
   * list's `inflight` may include (steering/order-listed-models.ts).
   */
  onModelsRead: (() => (list: readonly GatewayModel[] | undefined) => void) | undefined;

  constructor(transport: Transport, ttlMs: number, options: { requestBound?: boolean } = {}) {
    this.#transport = transport;
    this.#ttlMs = ttlMs;
    this.#requestBound = options.requestBound ?? REQUEST_BOUND_IO;
  }

  invalidate(): void {
    this.#models = undefined;
    this.#services = undefined;
    this.#generation++;
  }

  #fresh<T>(entry: Entry<T> | undefined): T | undefined {
    return entry !== undefined && monotonicNow() - entry.fetchedAt < this.#ttlMs
      ? entry.value
      : undefined;
  }

  /** The cached services when fresh, without fetching. */
  cachedServices(): GatewayService[] | undefined {
    return this.#fresh(this.#services);
  }

  /** The cached models answer while it is fresh, without reading. */
  cachedModels(): GatewayModel[] | undefined {
    return this.#fresh(this.#models);
  }

  /** True when `id` was looked up in the current fresh snapshot and is not in it. */
  isKnownMiss(id: string): boolean {
    const entry = this.#models;
    return entry !== undefined && this.#fresh(entry) !== undefined && entry.misses.has(id);
  }

  /**
   * Remembers that `id` is not in `models`, while that list is the cached snapshot: later look-ups
   * of the id then cost no request until the snapshot expires or is invalidated.
   */
  rememberMiss(id: string, models: readonly GatewayModel[]): void {
    if (this.#models?.value === models) this.#models.misses.add(id);
  }

  /**
   * Reads the models again because `stale` (a snapshot read earlier) lacks an id looked up in it:
   * the model may have come online since (§3.3). Only the models list is dropped, and only while it
   * is still `stale`: the callers that miss in one snapshot together share one re-read, whose
   * answer is kept (the services list stays as it is).
   */
  rereadModels(
    stale: readonly GatewayModel[],
    options?: CallOptions,
    parent?: CallEvents,
  ): Promise<GatewayModel[]> {
    if (this.#models?.value === stale) this.#models = undefined;
    return this.models(options, parent);
  }

  /** `parent`: the call this read is made for (its events' parent, when it sends one). */
  models(options?: CallOptions, parent?: CallEvents): Promise<GatewayModel[]> {
    const cached = this.#fresh(this.#models);
    if (cached) return Promise.resolve(cached);
    return this.#read(ENDPOINTS.models, options, parent, () => {
      // Told to `onModelsRead` as each read is sent, and again with its list (undefined: failed).
      const generation = this.#generation;
      const seen = this.onModelsRead?.();
      return (value?: GatewayModel[]) => {
        seen?.(value);
        if (value && generation === this.#generation) {
          this.#models = { value, fetchedAt: monotonicNow(), misses: new Set() };
        }
      };
    });
  }

  services(options?: CallOptions): Promise<GatewayService[]> {
    const cached = this.#fresh(this.#services);
    if (cached) return Promise.resolve(cached);
    return this.rereadServices(options);
  }

  /**
   * Reads `GET /capabilities` anew, whatever the cache holds, and caches the answer: the services
   * list only (the models list, its misses and a read of it in progress are left as they are).
   */
  rereadServices(options?: CallOptions): Promise<GatewayService[]> {
    return this.#read(ENDPOINTS.capabilities, options, undefined, () => {
      const generation = this.#generation;
      return (value?: GatewayService[]) => {
        if (value && generation === this.#generation) {
          this.#services = { value, fetchedAt: monotonicNow() };
        }
      };
    });
  }

  /**
   * A read of `path` whose answer is stored with what `begin()` returns as the read is sent
   * (called with the list, or with nothing when the read failed). Shared by concurrent callers
   * (`#join`), except in request-bound runtimes where each caller sends its own, under its own
   * signal and deadline.
   *
   * Only callers that would send the same request share a read (`flightKey`): the same retry
   * allowance (the same `maxRetries`, or none: the client's) and the same call headers. The shared
   * request retries as its starter's allowance says and carries its starter's headers, so a caller
   * joining a read with another allowance would be given fewer attempts than its own (one 503
   * failing a call that alone retries past it) or more (a `maxRetries: 0` call waiting through
   * retries), and one with other headers (another tenant's) would wait on a request it did not
   * make. Such a caller sends its own read, which the callers like it share. So every caller waits
   * on exactly the request it would send alone; the cost is one more `GET` when unlike calls miss
   * the cache at once (docs/gateway-protocol.md §4.2). The list read is then the client's cache,
   * whoever read it: the catalog is the key's, not a header's (§3.1).
   */
  #read<T extends { id: string }>(
    path: string,
    options: CallOptions | undefined,
    parent: CallEvents | undefined,
    begin: () => (value?: T[]) => void,
  ): Promise<T[]> {
    const key = this.#requestBound ? undefined : flightKey(path, options);
    if (key === undefined) {
      const store = begin();
      const read = this.#list<T>(path, options, parent);
      read.then(store, () => store());
      return read;
    }
    const flights = this.#flights as Map<string, Flight<T[]>>;
    let flight = flights.get(key);
    if (!flight) flight = this.#start(path, key, options, parent, begin());
    const shared = flight;
    return this.#join(shared, path, options, () => {
      if (flights.get(key) === shared) flights.delete(key);
    });
  }

  /**
   * The shared request: bound to no caller's signal or deadline (one caller leaving must not fail
   * the others) but to the flight's own controller, aborted when no caller remains. It runs under
   * the client's default deadline, with its starter's retry allowance and headers (`key` holds them:
   * only callers with the same join).
   */
  #start<T extends { id: string }>(
    path: string,
    key: string,
    options: CallOptions | undefined,
    parent: CallEvents | undefined,
    store: (value?: T[]) => void,
  ): Flight<T[]> {
    const controller = new AbortController();
    // (Not the starter's signal nor its deadline, however started: only what the key says.)
    const { maxRetries, headers } = options ?? {};
    const read = { maxRetries, headers, signal: controller.signal };
    const promise = this.#list<T>(path, read, parent);
    const flight: Flight<T[]> = { promise, controller, callers: 0, settled: false };
    const flights = this.#flights as Map<string, Flight<T[]>>;
    flights.set(key, flight);
    const end = (value?: T[]) => {
      flight.settled = true;
      if (flights.get(key) === flight) flights.delete(key);
      store(value);
    };
    promise.then(end, () => end());
    return flight;
  }

  /**
   * One caller's wait for a shared look-up, under its own signal and deadline: a caller that
   * aborts or times out leaves at once with its own `aborted` / `timeout` (marked as a failed read
   * of `path`, as the read's own failures are); the shared request is cancelled only when no
   * caller remains.
   */
  #join<T>(
    flight: Flight<T>,
    path: string,
    options: CallOptions | undefined,
    forget: () => void,
  ): Promise<T> {
    flight.callers++;
    const scope = scopeOf(options, this.#transport.timeoutMs);
    return new Promise<T>((resolve, reject) => {
      let left = false;
      const leave = (abandon: boolean) => {
        if (left) return;
        left = true;
        scope.signal.removeEventListener('abort', onAbort);
        scope.dispose();
        flight.callers--;
        if (abandon && flight.callers === 0 && !flight.settled) {
          forget();
          flight.controller.abort();
        }
      };
      const onAbort = () => {
        leave(true);
        const error = scope.error();
        markFailedRead(error, path);
        reject(error);
      };
      if (scope.aborted) {
        onAbort();
        return;
      }
      scope.signal.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (value) => {
          leave(false);
          resolve(value);
        },
        (error: unknown) => {
          leave(false);
          reject(error);
        },
      );
    });
  }

  /**
   * One read of a list; its events (with an `onEvent` hook) are ended here, so that an entry left
   * out is reported (`entry-skipped`) before the read's `done`.
   */
  async #list<T extends { id: string }>(
    path: string,
    options: CallOptions | undefined,
    parent?: CallEvents,
  ): Promise<T[]> {
    const spec = { method: 'GET', path } as const;
    const events = await this.#transport.callEvents(spec, parent);
    try {
      const answer = await this.#transport.json<GatewayList<T>>(spec, options, {
        events,
        parent,
        reportsEnd: false,
      });
      const { data, text } = answer;
      const listed = typeof data === 'object' && data !== null ? data.data : undefined;
      // An entry without an id (a newer gateway's, a half-written one) is left out, and reported:
      // the others stay usable. Only a body that is no list, or a list with no readable entry, is
      // refused.
      const readable = Array.isArray(listed)
        ? listed.filter((entry, index) => hasId(entry) || events?.entrySkipped(index))
        : [];
      if (!Array.isArray(listed) || (readable.length === 0 && listed.length > 0)) {
        // Read as chat's and a service's unusable answer (one rule: unusable-answer.ts): a gateway
        // error object in the 200 is that error (its code, Retry-After), any other
        // `invalid_response`; its body and headers (its `x-request-id`) kept, within
        // `maxErrorBodyBytes`.
        const message = `The gateway's ${path} answer is not a list of objects with an id`;
        throw unusableAnswer(this.#transport, message, answer);
      }
      events?.answered(data, text);
      return readable.length === listed.length ? listed : readable;
    } catch (error) {
      events?.failed(error);
      markFailedRead(error, path);
      throw error;
    }
  }
}

/** A list entry we can read: an object with a string `id`. */
function hasId<T extends { id: string }>(item: T): boolean {
  return typeof item === 'object' && item !== null && typeof item.id === 'string';
}

/**
 * What a shared read is made with (`Catalog.#read`): its path, its retry allowance and the call's
 * headers as fetch sends them (names lowercased, repeated ones joined), so `{ 'X-Org': 'a' }` and
 * `[['x-org', 'a']]` share, and `{}` shares with no headers. Undefined for headers fetch refuses:
 * such a call shares nothing (its own read fails on them).
 */
function flightKey(path: string, options: CallOptions | undefined): string | undefined {
  const key = `${path} ${options?.maxRetries ?? 'client'}`;
  if (options?.headers === undefined) return key;
  let headers: [string, string][];
  try {
    headers = [...new Headers(headerRecord(options.headers))];
  } catch {
    return undefined;
  }
  return headers.length === 0 ? key : `${key} ${JSON.stringify(headers)}`;
}
