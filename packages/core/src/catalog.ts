import { GatewayError } from './errors';
import type { Transport } from './transport';
import { invalidResponse } from './transport';
import type { CallOptions, GatewayList, GatewayModel, GatewayService } from './types';

interface Entry<T> {
  value: T;
  fetchedAt: number;
}

/** The models snapshot, with the ids looked up in it and not found (forgotten with it). */
interface ModelsEntry extends Entry<GatewayModel[]> {
  misses: Set<string>;
}

/**
 * A cached, single-flight snapshot of `GET /models` and `GET /capabilities`: concurrent callers
 * share one request; entries live `ttlMs`; `invalidate()` forces the next read to fetch.
 */
export class Catalog {
  readonly #transport: Transport;
  readonly #ttlMs: number;
  #models: ModelsEntry | undefined;
  #services: Entry<GatewayService[]> | undefined;
  #modelsInFlight: Promise<GatewayModel[]> | undefined;
  #servicesInFlight: Promise<GatewayService[]> | undefined;
  #generation = 0;

  constructor(transport: Transport, ttlMs: number) {
    this.#transport = transport;
    this.#ttlMs = ttlMs;
  }

  invalidate(): void {
    this.#models = undefined;
    this.#services = undefined;
    this.#generation++;
  }

  #fresh<T>(entry: Entry<T> | undefined): T | undefined {
    return entry !== undefined && Date.now() - entry.fetchedAt < this.#ttlMs
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

  models(options?: CallOptions): Promise<GatewayModel[]> {
    const cached = this.#fresh(this.#models);
    if (cached) return Promise.resolve(cached);
    if (!this.#modelsInFlight) {
      const generation = this.#generation;
      // The shared request is not bound to one caller's signal: one caller aborting must not fail the others.
      this.#modelsInFlight = this.#list<GatewayModel>('/models', withoutSignal(options))
        .then((value) => {
          if (generation === this.#generation) {
            this.#models = { value, fetchedAt: Date.now(), misses: new Set() };
          }
          return value;
        })
        .finally(() => {
          this.#modelsInFlight = undefined;
        });
    }
    return raceSignal(this.#modelsInFlight, options?.signal);
  }

  services(options?: CallOptions): Promise<GatewayService[]> {
    const cached = this.#fresh(this.#services);
    if (cached) return Promise.resolve(cached);
    if (!this.#servicesInFlight) {
      const generation = this.#generation;
      this.#servicesInFlight = this.#list<GatewayService>('/capabilities', withoutSignal(options))
        .then((value) => {
          if (generation === this.#generation) this.#services = { value, fetchedAt: Date.now() };
          return value;
        })
        .finally(() => {
          this.#servicesInFlight = undefined;
        });
    }
    return raceSignal(this.#servicesInFlight, options?.signal);
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

function withoutSignal(options: CallOptions | undefined): CallOptions | undefined {
  if (!options?.signal) return options;
  const { signal: _signal, ...rest } = options;
  return rest;
}

/** Lets one caller stop waiting for a shared promise without cancelling it for the others. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  const abortedError = () =>
    new GatewayError({
      code: 'aborted',
      message: 'The call was aborted',
      cause: signal.reason,
      isRetryable: false,
    });
  if (signal.aborted) return Promise.reject(abortedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
