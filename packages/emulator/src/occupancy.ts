// docs/gateway-protocol.md §2.5 (requests at once), §3.1 (`capacity`, `inflight`).
/**
 * Requests running now on each model and service (`model:<id>`, `service:<id>`): what `/models`
 * and `/capabilities` report as `inflight`, and what the `capacity` checks count.
 */
export class Occupancy {
  readonly #running = new Map<string, number>();

  inflight(resource: string): number {
    return this.#running.get(resource) ?? 0;
  }

  /** Counts one more request on `resource`: the count now, and the release of this one. */
  occupy(resource: string): { running: number; release: () => void } {
    const running = (this.#running.get(resource) ?? 0) + 1;
    this.#running.set(resource, running);
    return {
      running,
      release: () => this.#running.set(resource, (this.#running.get(resource) ?? 1) - 1),
    };
  }
}

/**
 * What one request holds — its key's slot and the models and services it occupies — given back
 * together, once: when its answer is returned, or by a streamed body that took the release.
 */
export class RequestHold {
  readonly #releases: (() => void)[];
  #handedOff = false;

  constructor(keySlot: () => void) {
    this.#releases = [keySlot];
  }

  add(release: () => void): void {
    this.#releases.push(release);
  }

  /** Hands the release to a streamed body, which then must call it. */
  takeRelease(): () => void {
    this.#handedOff = true;
    return this.#release;
  }

  /** The answer is out: gives everything back, unless a streamed body took the release. */
  end(): void {
    if (!this.#handedOff) this.#release();
  }

  readonly #release = () => {
    for (const release of this.#releases.splice(0)) release();
  };
}
