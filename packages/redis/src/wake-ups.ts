import type { RedisConnection } from './redis-connection';

/**
 * A queued waiter's wake-ups: a release publishes the tokens of the waiters now first in line on
 * the id's release channel, and only a waiter named there wakes; a bounded back-off poll covers
 * lost messages and crashed holders.
 */
export class WakeUps {
  readonly #redis: Pick<RedisConnection, 'subscribe'>;
  readonly #channel: string;
  /** The waiter's token now (a retry after a dropped connection takes a new one). */
  readonly #token: () => string;
  #wake: (() => void) | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(redis: Pick<RedisConnection, 'subscribe'>, channel: string, token: () => string) {
    this.#redis = redis;
    this.#channel = channel;
    this.#token = token;
  }

  /** Subscribes on the first wait; waits for a release naming the token, an abort or `pauseMs`. */
  async wait(pauseMs: number, signal: AbortSignal): Promise<void> {
    this.#unsubscribe ??= await this.#redis.subscribe(this.#channel, (message) => {
      if (message.split(' ').includes(this.#token())) this.#wake?.();
    });
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, pauseMs);
      this.#wake = done;
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Stops listening (the waiter got its slot or left). */
  close(): void {
    this.#unsubscribe?.();
  }
}

/** The longest wait before trying again: back-off from 50 ms, at most `maxPoll` and TTL/3. */
export function pollPause(attempt: number, maxPoll: number, ttl: number): number {
  return Math.min(maxPoll, 50 * 2 ** Math.min(attempt, 5), Math.max(10, ttl / 3));
}
