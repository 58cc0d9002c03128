// docs/gateway-protocol.md §3.1 (`GET /models`), §3.2 (`GET /capabilities`), §3.3 (caching).
import type { CallOptions } from '../call/call-options';
import { checkCallOptions } from '../call/call-options';
import { CallScope, REQUEST_BOUND_IO } from '../call/call-scope';
import { monotonicNow } from '../call/monotonic-clock';
import { invalidResponse } from '../errors/invalid-response';
import type { CallEvents } from '../events/call-events';
import type { Transport } from '../http/transport';
import { ENDPOINTS } from '../protocol/endpoints';
import type { GatewayList, GatewayModel, GatewayService } from '../protocol/wire-types';

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
 * share one request; entries live `ttlMs`; `invalidate()` forces the next read to fetch.
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
  #modelsInFlight: Flight<GatewayModel[]> | undefined;
  #servicesInFlight: Flight<GatewayService[]> | undefined;
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

  /** `parent`: the call this read is made for (its events' parent, when it sends one). */
  models(options?: CallOptions, parent?: CallEvents): Promise<GatewayModel[]> {
    checkCallOptions(options ?? {});
    const cached = this.#fresh(this.#models);
    if (cached) return Promise.resolve(cached);
    if (this.#requestBound) {
      const { store, stop } = this.#storeModels();
      const read = this.#fetchOwn(ENDPOINTS.models, options, store, parent);
      read.catch(stop);
      return read;
    }
    if (!this.#modelsInFlight) {
      const { store, stop } = this.#storeModels();
      const flight = this.#start<GatewayModel>(ENDPOINTS.models, options, store, parent);
      this.#modelsInFlight = flight;
      const end = () => {
        stop();
        this.#endModels(flight);
      };
      flight.promise.then(end, end);
    }
    return this.#join(this.#modelsInFlight, options, () => this.#endModels(this.#modelsInFlight));
  }

  /** Stores a models answer read from now on (told to `onModelsRead`; `stop`: the read failed). */
  #storeModels(): { store: (value: GatewayModel[]) => void; stop: () => void } {
    const generation = this.#generation;
    const seen = this.onModelsRead?.();
    const stop = () => seen?.(undefined);
    const store = (value: GatewayModel[]) => {
      seen?.(value);
      if (generation === this.#generation) {
        this.#models = { value, fetchedAt: monotonicNow(), misses: new Set() };
      }
    };
    return { store, stop };
  }

  #endModels(flight: Flight<GatewayModel[]> | undefined): void {
    if (this.#modelsInFlight === flight) this.#modelsInFlight = undefined;
  }

  services(options?: CallOptions): Promise<GatewayService[]> {
    checkCallOptions(options ?? {});
    const cached = this.#fresh(this.#services);
    if (cached) return Promise.resolve(cached);
    const generation = this.#generation;
    const store = (value: GatewayService[]) => {
      if (generation === this.#generation) this.#services = { value, fetchedAt: monotonicNow() };
    };
    if (this.#requestBound) return this.#fetchOwn(ENDPOINTS.capabilities, options, store);
    if (!this.#servicesInFlight) {
      const flight = this.#start<GatewayService>(ENDPOINTS.capabilities, options, store);
      this.#servicesInFlight = flight;
      flight.promise.then(
        () => this.#endServices(flight),
        () => this.#endServices(flight),
      );
    }
    return this.#join(this.#servicesInFlight, options, () =>
      this.#endServices(this.#servicesInFlight),
    );
  }

  #endServices(flight: Flight<GatewayService[]> | undefined): void {
    if (this.#servicesInFlight === flight) this.#servicesInFlight = undefined;
  }

  /** One caller's own look-up, under its own signal and deadline (request-bound runtimes). */
  async #fetchOwn<T extends { id: string }>(
    path: string,
    options: CallOptions | undefined,
    store: (value: T[]) => void,
    parent?: CallEvents,
  ): Promise<T[]> {
    const value = await this.#list<T>(path, options, parent);
    store(value);
    return value;
  }

  /**
   * The shared request: bound to no caller's signal or deadline (one caller leaving must not fail
   * the others) but to the flight's own controller, aborted when no caller remains. It runs under
   * the client's default deadline.
   */
  #start<T extends { id: string }>(
    path: string,
    options: CallOptions | undefined,
    store: (value: T[]) => void,
    parent?: CallEvents,
  ): Flight<T[]> {
    const controller = new AbortController();
    const { signal: _signal, timeoutMs: _timeoutMs, ...rest } = options ?? {};
    const flight: Flight<T[]> = {
      controller,
      callers: 0,
      settled: false,
      promise: this.#list<T>(path, { ...rest, signal: controller.signal }, parent).then((value) => {
        store(value);
        return value;
      }),
    };
    flight.promise.then(
      () => {
        flight.settled = true;
      },
      () => {
        flight.settled = true;
      },
    );
    return flight;
  }

  /**
   * One caller's wait for a shared look-up, under its own signal and deadline: a caller that
   * aborts or times out leaves at once with its own `aborted` / `timeout`; the shared request is
   * cancelled only when no caller remains.
   */
  #join<T>(flight: Flight<T>, options: CallOptions | undefined, forget: () => void): Promise<T> {
    flight.callers++;
    const scope = new CallScope(options?.signal, options?.timeoutMs ?? this.#transport.timeoutMs);
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
        reject(scope.error());
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

  async #list<T extends { id: string }>(
    path: string,
    options: CallOptions | undefined,
    parent?: CallEvents,
  ): Promise<T[]> {
    const { data, status } = await this.#transport.json<GatewayList<T>>(
      { method: 'GET', path },
      options,
      parent && { parent },
    );
    if (
      typeof data !== 'object' ||
      data === null ||
      !Array.isArray(data.data) ||
      !data.data.every(
        (item) => typeof item === 'object' && item !== null && typeof item.id === 'string',
      )
    ) {
      throw invalidResponse(`The gateway's ${path} answer is not a list of objects with an id`, {
        status,
        data,
      });
    }
    return data.data;
  }
}
