// docs/gateway-protocol.md §2.5 (a call waiting for one of the key's slots is told when it is its).
import type { RedisConnection } from './redis-connection';
import type { RedisLeases } from './redis-leases';

/** Why a waiter's wait ended: a slot was handed to it, or it is time to ask again. */
export type WakeReason = 'granted' | 'poll';

/**
 * The wake-ups of one budget's waiters. A release (or an acquire, or the end of a settle period)
 * hands each free slot to the first waiter in line and publishes its token (and the server's times)
 * on the channel of the waiter's own budget instance: one message to one process per slot, however
 * many processes wait, and the waiter holds the slot without asking again (unless the message may
 * be stale: acquire-lease.ts, `freshHandover`). Waiters also poll (`pollPause`) for what no
 * message announces: a crashed holder's lease expiring, a settle period ending unanswered, a
 * message lost while the pub/sub connection was down (then every waiter asks at once).
 */
export class WakeUps {
  readonly #redis: Pick<RedisConnection, 'subscribe'>;
  readonly #leases: Pick<RedisLeases, 'wakeChannel'>;
  /** An acquire found leases of this instance expired on `id` and asks whether it still holds
   *  them (a census, on the same channel). */
  readonly #onCensus: (id: string) => void;
  /** Per id, the subscription to this instance's wake channel: true once Redis confirmed it. */
  readonly #listening = new Map<string, Promise<boolean>>();
  readonly #confirmed = new Set<string>();
  /** The tokens of this budget's waiters now, with the wait of those waiting. */
  readonly #waiters = new Map<string, Waiting | undefined>();
  /** Tokens handed a slot before their waiter started waiting (the message beat the answer). */
  readonly #early = new Set<string>();
  /** Per token, its latest handover's server times (ms), when the message said both. */
  readonly #handovers = new Map<string, Handover>();

  constructor(
    redis: Pick<RedisConnection, 'subscribe'>,
    leases: Pick<RedisLeases, 'wakeChannel'>,
    onCensus: (id: string) => void,
  ) {
    this.#redis = redis;
    this.#leases = leases;
    this.#onCensus = onCensus;
  }

  /** Subscribes to this instance's wake channel of `id` (once); resolves true once confirmed. */
  listen(id: string): Promise<boolean> {
    let listening = this.#listening.get(id);
    if (!listening) {
      listening = this.#redis
        .subscribe(this.#leases.wakeChannel(id), (message) => {
          if (message === 'census') this.#onCensus(id);
          else if (message.startsWith('near ')) this.#nearHead(message);
          else this.#handedOver(message);
        })
        .then((active) => {
          if (active) this.#confirmed.add(id);
          else this.#listening.delete(id); // tried again by the next waiter
          return active;
        });
      this.#listening.set(id, listening);
    }
    return listening;
  }

  /** Whether a slot handed over on `id` now reaches this instance. */
  listening(id: string): boolean {
    return this.#confirmed.has(id);
  }

  /** A waiter's token, from its first acquire until `done`. */
  expect(token: string): void {
    this.#waiters.set(token, undefined);
  }

  done(token: string): void {
    this.#waiters.delete(token);
    this.#early.delete(token);
    this.#handovers.delete(token);
  }

  /** When a slot was last handed to `token` and when its lease expires (undefined: not said). */
  handover(token: string): Handover | undefined {
    return this.#handovers.get(token);
  }

  /** Waits for a slot handed to `token`, the caller's abort, or `pauseMs` (then: poll). */
  wait(token: string, pauseMs: number, signal: AbortSignal): Promise<WakeReason> {
    if (this.#early.delete(token)) return Promise.resolve('granted');
    return new Promise<WakeReason>((resolve) => {
      const until = performance.now() + pauseMs;
      const finish = (reason: WakeReason) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (this.#waiters.has(token)) this.#waiters.set(token, undefined);
        resolve(reason);
      };
      const onAbort = () => finish('poll');
      let timer = setTimeout(() => finish('poll'), pauseMs);
      const hurry = (ms: number) => {
        if (performance.now() + ms >= until) return;
        clearTimeout(timer);
        timer = setTimeout(() => finish('poll'), ms);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.set(token, { finish, hurry });
    });
  }

  /** The pub/sub connection is back: what was announced meanwhile is lost, so every waiter asks. */
  pollAll(): void {
    for (const waiting of [...this.#waiters.values()]) waiting?.finish('poll');
  }

  /** `<token> <server ms of the grant> <server ms of the lease's expiry>` (a process of an earlier
   *  version sends the token alone, or without the expiry: then the waiter confirms the slot). */
  #handedOver(message: string): void {
    const [token = '', at, expiry] = message.split(' ');
    if (!this.#waiters.has(token)) return; // its waiter left (its release frees the slot)
    const times = { at: Number(at), expiry: Number(expiry) };
    if (Number.isFinite(times.at) && Number.isFinite(times.expiry))
      this.#handovers.set(token, times);
    else this.#handovers.delete(token);
    const waiting = this.#waiters.get(token);
    if (waiting) waiting.finish('granted');
    else this.#early.add(token);
  }

  /** `near <ms> <token>`: now one of the first in line, it asks again when the earliest lease
   *  expires (a few ms past it, so that the server's clock has passed it too). */
  #nearHead(message: string): void {
    const [, ms, token] = message.split(' ');
    const waiting = token === undefined ? undefined : this.#waiters.get(token);
    if (waiting && Number.isFinite(Number(ms))) waiting.hurry(Number(ms) + 5);
  }
}

/** A handover's server times (ms): of the grant, and when the lease expires unless refreshed. */
export interface Handover {
  at: number;
  expiry: number;
}

/** A waiter's wait: ended by a handover or a poll, or brought forward (`hurry`). */
interface Waiting {
  finish(reason: WakeReason): void;
  hurry(ms: number): void;
}

/**
 * The longest wait before asking again. Near the head of the queue (fewer than `limit` waiters
 * before it): until the next change no message announces (a lease's expiry, the end of a settle
 * period: `nextChangeMs`, from the script), so a crashed holder's slot is taken as soon as it
 * expires, and at least every `maxPoll` (a lease of a process with a shorter TTL, a smaller limit
 * running out); every other change (a release, a waiter leaving) hands the slot over with a
 * message. Without a confirmed wake channel (`listening` false: a handover would reach nobody),
 * or with no change pending: back-off from 50 ms up to `maxPoll`. Further back: TTL/3, only to
 * stay in the queue (a waiter that stops asking for a TTL counts as gone); its turn comes with a
 * message. Never longer than TTL/3.
 */
export function pollPause(
  attempt: number,
  options: {
    maxPoll: number;
    ttl: number;
    nearHead: boolean;
    listening: boolean;
    nextChangeMs: number | undefined;
  },
): number {
  const refresh = Math.max(10, options.ttl / 3);
  if (!options.nearHead) return refresh;
  const longest = Math.min(options.maxPoll, refresh);
  // (A few ms past the change, so that the server's clock has passed it too.)
  const change = options.nextChangeMs === undefined ? undefined : options.nextChangeMs + 5;
  if (options.listening && change !== undefined) return Math.max(1, Math.min(longest, change));
  const backOff = Math.min(longest, 50 * 2 ** Math.min(attempt, 5));
  return Math.max(1, Math.min(backOff, change ?? backOff));
}
