// docs/gateway-protocol.md §3.1 (`GET /models`), §3.2 (`GET /capabilities`), §3.3 (caching).
import type { CallOptions } from '../call/call-options';
import { checkCallOptions } from '../call/call-options';
import { CallScope, MAX_TIMEOUT_MS, REQUEST_BOUND_IO } from '../call/call-scope';
import { monotonicNow } from '../call/monotonic-clock';
import { invalidResponse } from '../errors/invalid-response';
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
   * Per models answer, this client's chat requests per model its `inflight` may count
   * (model-inflight.ts); kept with the list, which calls planned on it hold after a newer read.
   */
  readonly #oursIn = new WeakMap<readonly GatewayModel[], ReadonlyMap<string, number>>();

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

  /** True when the models answer came from the cache (the caller may refresh and retry once). */
  hasFreshModels(): boolean {
    return this.#fresh(this.#models) !== undefined;
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
   * The calls of others (other keys, processes or clients) in a listed model's `inflight`: the
   * gateway counted this client's own requests too, and the order of `fallbackModels` adds ours
   * as they are now (§4.7). Without it a snapshot read while our calls ran would make a model
   * look full for the snapshot's whole life, and every call would go to the same one.
   */
  othersInflight(models: readonly GatewayModel[], entry: GatewayModel): number {
    const inflight = typeof entry.inflight === 'number' ? entry.inflight : 0;
    return Math.max(0, inflight - (this.#oursIn.get(models)?.get(entry.id) ?? 0));
  }

  models(options?: CallOptions): Promise<GatewayModel[]> {
    checkCallOptions(options ?? {});
    const cached = this.#fresh(this.#models);
    if (cached) return Promise.resolve(cached);
    if (this.#requestBound) {
      const { store, stop } = this.#storeModels();
      const read = this.#fetchOwn(ENDPOINTS.models, options, store);
      read.catch(stop);
      return read;
    }
    if (!this.#modelsInFlight) {
      const { store, stop } = this.#storeModels();
      const flight = this.#start<GatewayModel>(ENDPOINTS.models, options, store);
      this.#modelsInFlight = flight;
      const end = () => {
        stop();
        this.#endModels(flight);
      };
      flight.promise.then(end, end);
    }
    return this.#join(this.#modelsInFlight, options, () => this.#endModels(this.#modelsInFlight));
  }

  /**
   * Stores a models answer read from now on, with our own requests its `inflight` may count:
   * those in flight from before it is sent until it is read (`stop` ends that count on failure).
   */
  #storeModels(): { store: (value: GatewayModel[]) => void; stop: () => void } {
    const generation = this.#generation;
    const stop = this.#transport.watchInflight();
    const store = (value: GatewayModel[]) => {
      this.#oursIn.set(value, stop());
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
  ): Promise<T[]> {
    const value = await this.#list<T>(path, options);
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
  ): Flight<T[]> {
    const controller = new AbortController();
    const { signal: _signal, timeoutMs: _timeoutMs, ...rest } = options ?? {};
    const flight: Flight<T[]> = {
      controller,
      callers: 0,
      settled: false,
      promise: this.#list<T>(path, { ...rest, signal: controller.signal }).then((value) => {
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
    const scope = new CallScope(
      options?.signal,
      Math.min(MAX_TIMEOUT_MS, options?.timeoutMs ?? this.#transport.timeoutMs),
    );
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
  ): Promise<T[]> {
    const { data, status } = await this.#transport.json<GatewayList<T>>(
      { method: 'GET', path },
      options,
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
