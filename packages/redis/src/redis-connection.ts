import type { ConnectionOptions } from 'node:tls';
import { GatewayError } from '@infergate/core';
import { redisUrlFault } from '@infergate/core/internal';
import { createClient } from 'redis';
import type { LeaseKeys } from './lease-scripts';
import { checkAccess, PROBE_SCRIPT, refusalOf } from './redis-access';
import {
  failureWords,
  isErrorReply,
  mayBeTheScheme,
  nobodyThere,
  type Outage,
  type OutageState,
  RedisDown,
  startOutage,
} from './redis-outage';
import { schemeMismatch } from './scheme-check';
import { tlsSettingsRefusal } from './tls-settings';

type RedisClient = ReturnType<typeof createClient>;

/** TLS settings for a `rediss://` URL: a private CA (Memorystore, self-hosted), a client certificate. */
export type RedisTlsOptions = Pick<
  ConnectionOptions,
  'ca' | 'cert' | 'key' | 'passphrase' | 'servername' | 'rejectUnauthorized'
>;

/** Redis did not answer within `commandTimeoutMs` (it may still run the command later). The
 *  message is the words an outage gives as its reason. */
export class RedisTimeout extends Error {
  constructor(ms: number, words = `timed out: no answer within ${ms} ms`) {
    super(words);
    this.name = 'RedisTimeout';
  }
}

/** `promise`, or a `RedisTimeout` once `ms` passed (what `promise` does goes on). */
export function withTimeout<T>(promise: Promise<T>, ms: number, words?: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisTimeout(ms, words)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** `promise`, or the abort's reason as soon as `signal` aborts (what `promise` does goes on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  promise.catch(() => {}); // (left behind on an abort: its failure is the connection's concern)
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() =>
    signal.removeEventListener('abort', onAbort),
  );
}

/** The budget's two connections: scripts on one, pub/sub (wake-ups, census) on the other. */
export interface RedisConnection {
  /**
   * Runs a script. Waits (at most the command timeout) for a dropped connection to come back,
   * then rejects past the command timeout: a `RedisTimeout` means the script may still run.
   * Rejects with the refusal once Redis refused the budget. During an outage it waits for nothing:
   * `RedisDown` at once, unless the socket is still open (a frozen server runs the script when it
   * resumes: a release must follow the late script it undoes on the same connection). `signal`
   * (the call's abort or deadline) ends the wait at once, with its reason: the script may still
   * run.
   */
  run(script: string, keys: string[], args: string[], signal?: AbortSignal): Promise<unknown>;
  /** Set while Redis is known to be unreachable (see `redis-outage.ts`). */
  readonly outage: Outage | undefined;
  /** A call gave up on Redis (no answer in time, or a drop not back in time): starts an outage. */
  failed(cause: unknown): void;
  /** Calls `listener` when an outage starts (waiters stop waiting for Redis). */
  onOutage(listener: () => void): void;
  /** Awaits `listener` when Redis answers after an outage, before calls use Redis again. */
  onRecovery(listener: () => Promise<void>): void;
  /**
   * Calls `listener` with each message on `channel`, for the budget's life. Resolves (bounded by
   * the command timeout) with whether Redis confirmed the subscription; a failed one is tried
   * again by the next call.
   */
  subscribe(channel: string, listener: (message: string) => void): Promise<boolean>;
  /** Calls `listener` each time a connection is (again) ready: what it missed must be redone. */
  onReady(listener: () => void): void;
  /** Connects (once) and checks the budget's access, or waits for an outage to end, at most the
   *  command timeout; rejects with the refusal, `RedisDown` or a `RedisTimeout`. */
  ready(): Promise<void>;
  /** Set once Redis refused the budget: credentials, certificate, or the user's rights. */
  readonly refusal: GatewayError | undefined;
  readonly closed: boolean;
  /** Closes both connections; `unanswered` (Redis did not answer the last commands) drops them. */
  close(unanswered?: boolean): Promise<void>;
}

export interface ConnectOptions {
  url: string;
  commandTimeout: number;
  tls?: RedisTlsOptions;
  /** The longest pause between two reconnection attempts. */
  maxReconnectDelay: number;
  /** The keys and channel the access check works on (never a budget's own). */
  probe: LeaseKeys;
  /** Counts each script actually sent (the budget's `roundTrips`). */
  onSend(): void;
  /** The access check found an `allkeys-*` maxmemory policy (named): Redis may evict leases. */
  onAllKeysEviction(policy: string): void;
}

/**
 * The longest pause between reconnection attempts for a lease TTL: 2 s, or a quarter of a shorter
 * TTL. After a restart that lost the leases, an acquire grants nothing for at most 2/3 of a TTL
 * while the holders re-register; a holder whose attempt just missed Redis coming back tries again
 * well within that window, instead of one back-off later, when another process already took its
 * slots (lease-scripts.ts, ACQUIRE_PREAMBLE).
 */
export function maxReconnectDelayFor(ttl: number): number {
  return Math.min(2000, Math.max(50, Math.floor(ttl / 4)));
}

/**
 * The pause before the next reconnection attempt (or probe) of an outage: backing off
 * (100 ms doubled each try, up to `maxReconnectDelay`), but with one attempt shortly before the
 * outage is `commandTimeout` old. The calls that waited in Redis's queue when it began refusing
 * connections wait for it until then: a Redis back in time (a restart) is found in time, and they
 * keep their turn, instead of one back-off later (a 2 s pause from 1.5 s looked next at 3.1 s).
 * One extra attempt per outage: nothing more for a Redis that stays away.
 */
export function reconnectPause(
  tries: number,
  msIntoOutage: number | undefined,
  options: { maxReconnectDelay: number; commandTimeout: number },
): number {
  const backOff = Math.min(100 * 2 ** tries, options.maxReconnectDelay);
  if (msIntoOutage === undefined) return backOff;
  // (Time left for the attempt, the probe and the leases' re-take before the waiters' bound.)
  const margin = Math.min(100, Math.floor(options.commandTimeout / 10));
  const untilLastChance = options.commandTimeout - margin - msIntoOutage;
  return untilLastChance > 0 && untilLastChance < backOff ? untilLastChance : backOff;
}

export function connectRedis(options: ConnectOptions): RedisConnection {
  return new BudgetConnection(options);
}

function configurationError(message: string): GatewayError {
  return new GatewayError({ code: 'configuration_error', message: `@infergate/redis: ${message}` });
}

/**
 * The client options, checked first: node-redis quotes the whole URL (password included) in some
 * of its own errors, so ours name only what is wrong.
 */
function clientOptions(
  options: ConnectOptions,
  reconnectStrategy: (retries: number, cause: Error) => number | Error,
) {
  // (Checked with the options already; again here, as nothing of a refused value may be quoted.)
  const fault = redisUrlFault(options.url);
  if (fault !== undefined) throw configurationError(`\`url\` ${fault}`);
  const { protocol } = new URL(options.url);
  if (options.tls !== undefined && protocol !== 'rediss:') {
    throw configurationError('`tls` applies to rediss:// URLs only');
  }
  return {
    url: options.url,
    disableOfflineQueue: true,
    // No handshake extras: fewer commands for the ACL user, no DNS look-up at a cold start.
    disableClientInfo: true,
    maintNotifications: 'disabled' as const,
    socket: { connectTimeout: options.commandTimeout, reconnectStrategy, ...options.tls },
  };
}

class BudgetConnection implements RedisConnection {
  readonly #options: ConnectOptions;
  readonly #client: RedisClient;
  readonly #subscriber: RedisClient;
  /** Per channel: its listeners, and whether Redis confirmed the subscription. */
  readonly #channels = new Map<
    string,
    { listeners: Set<(message: string) => void>; active: Promise<boolean> }
  >();
  #closed = false;
  #refusal: GatewayError | undefined;
  #connecting: Promise<void> | undefined;
  #checking: Promise<void> | undefined;
  #checked = false;
  /** Whether the script connection was ever ready: a scheme that worked once is not the problem. */
  #everReady = false;
  /** The wait for the client's next 'ready' after a drop: one command timeout from the first
   *  caller that found it dropped, shared by every caller (its end starts an outage). */
  #reconnected: Promise<void> | undefined;
  #outage: OutageState | undefined;
  /** The waits that end at once when an outage starts. */
  readonly #waits = new Set<(down: RedisDown) => void>();
  readonly #outageListeners: (() => void)[] = [];
  readonly #recoveryListeners: (() => Promise<void>)[] = [];

  constructor(options: ConnectOptions) {
    this.#options = options;
    // Keep trying in the background (a call waits for it at most `commandTimeoutMs`; no offline
    // queue: commands are never sent late from a buffer), unless Redis refused the budget.
    const reconnectStrategy = (retries: number, cause: Error) => {
      const refusal = refusalOf(cause) ?? tlsSettingsRefusal(cause, options.tls);
      if (refusal !== undefined) {
        this.#refusal ??= refusal;
        return refusal;
      }
      // A connection that never worked has nothing to come back to, and one whose server refuses
      // connections (stopped, or restarting) cannot be used meanwhile: an outage at once. (A
      // dropped one otherwise gets a command timeout to come back.)
      if (!this.#everReady || nobodyThere(cause)) this.failed(cause);
      return reconnectPause(retries, this.#msIntoOutage(), options);
    };
    let client: RedisClient;
    try {
      client = createClient(clientOptions(options, reconnectStrategy));
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      throw configurationError('the Redis client did not accept `url` or `tls`');
    }
    this.#client = client;
    this.#subscriber = client.duplicate();
    for (const c of [client, this.#subscriber]) {
      c.on('error', () => {});
      // A connection attempt under way when the budget closed: node-redis has no socket to destroy
      // then, and the attempt ends connected and ready, holding the process open. Dropped here.
      c.on('connect', () => {
        if (this.#closed) c.destroy();
      });
    }
    client.on('ready', () => {
      this.#everReady = true;
    });
  }

  /** How long the outage under way has lasted (on the monotonic clock), if one is. */
  #msIntoOutage(): number | undefined {
    const outage = this.#outage;
    return outage === undefined ? undefined : performance.now() - outage.since;
  }

  get closed(): boolean {
    return this.#closed;
  }

  get refusal(): GatewayError | undefined {
    return this.#refusal;
  }

  get outage(): Outage | undefined {
    return this.#outage;
  }

  async ready(): Promise<void> {
    await withTimeout(this.#upOrRefused(), this.#options.commandTimeout).catch((cause: unknown) => {
      if (cause instanceof RedisTimeout) this.failed(cause); // (its reason says why, for the error)
      throw cause;
    });
  }

  run(script: string, keys: string[], args: string[], signal?: AbortSignal): Promise<unknown> {
    return untilAborted(this.#run(script, keys, args), signal);
  }

  async #run(script: string, keys: string[], args: string[]): Promise<unknown> {
    if (this.#refusal) throw this.#refusal;
    if (this.#outage) {
      if (!this.#client.isReady || !this.#checked) {
        throw new RedisDown(this.#outage.summary, this.#outage.headline);
      }
    } else {
      await this.#untilOutage(this.#usable());
    }
    this.#options.onSend();
    try {
      return await this.#untilOutage(
        withTimeout(
          this.#client.eval(script, { keys, arguments: args }),
          this.#options.commandTimeout,
        ),
      );
    } catch (cause) {
      // The user's rights changed since the check (or a script runs a command it did not probe).
      const refusal = refusalOf(cause);
      if (refusal !== undefined) {
        this.#refusal ??= refusal;
        throw this.#refusal;
      }
      // An error reply (READONLY after a failover, OOM) is Redis's answer: an outage at once.
      if (cause instanceof RedisTimeout || isErrorReply(cause)) this.failed(cause);
      throw cause;
    }
  }

  failed(cause: unknown): void {
    if (this.#outage || this.#closed || this.#refusal) return;
    const { url, commandTimeout } = this.#options;
    const words = failureWords(cause, commandTimeout);
    const outage = startOutage(
      words,
      mayBeTheScheme(cause, this.#everReady)
        ? // (Bounded on its own: a short command timeout must not cut a loopback answer short.)
          () => schemeMismatch(url, Math.max(commandTimeout, 2000))
        : undefined,
      this.#everReady && nobodyThere(cause),
      isErrorReply(cause),
    );
    this.#outage = outage;
    for (const end of [...this.#waits]) end(new RedisDown(words, outage.headline));
    for (const listener of this.#outageListeners) listener();
    void this.#recover(outage);
  }

  onOutage(listener: () => void): void {
    this.#outageListeners.push(listener);
  }

  onRecovery(listener: () => Promise<void>): void {
    this.#recoveryListeners.push(listener);
  }

  subscribe(channel: string, listener: (message: string) => void): Promise<boolean> {
    const known = this.#channels.get(channel);
    if (known) {
      known.listeners.add(listener);
      return known.active;
    }
    const listeners = new Set([listener]);
    // (After connecting: a first call subscribes beside its first script, before any connection.)
    const subscribed = this.#connect().then(() =>
      this.#subscriber.subscribe(channel, (message: string) => {
        for (const l of listeners) l(message);
      }),
    );
    const active = withTimeout(subscribed, this.#options.commandTimeout).then(
      () => true,
      () => {
        this.#channels.delete(channel);
        return false;
      },
    );
    this.#channels.set(channel, { listeners, active });
    return active;
  }

  onReady(listener: () => void): void {
    this.#client.on('ready', listener);
    this.#subscriber.on('ready', listener);
  }

  async close(unanswered = false): Promise<void> {
    this.#closed = true;
    // A graceful close waits for the server; when it is gone (or not answering: stopped, frozen),
    // drop the sockets instead. Both together: one command timeout at most.
    const graceful = !unanswered && this.#outage === undefined;
    await Promise.all(
      [this.#client, this.#subscriber].map(async (c) => {
        if (c.isReady && graceful) {
          await withTimeout(c.close(), this.#options.commandTimeout).catch(() => c.destroy());
        } else c.destroy(); // (also ends a reconnection loop: no attempt after its pause)
      }),
    );
  }

  /** Connected and checked, waiting through an outage for its end (`ready`'s bound applies). */
  async #upOrRefused(): Promise<void> {
    for (;;) {
      if (this.#refusal) throw this.#refusal;
      if (this.#outage?.answered) throw new RedisDown(this.#outage.summary, this.#outage.headline);
      if (this.#outage) {
        await this.#outage.ended;
        continue;
      }
      try {
        await this.#untilOutage(this.#usable());
        if (this.#refusal) throw this.#refusal;
        return;
      } catch (cause) {
        const retried = cause instanceof RedisDown || cause instanceof RedisTimeout;
        // (An error reply is told at once: Redis answered, waiting changes nothing.)
        if (!retried || (this.outage as Outage | undefined)?.answered) throw cause;
      }
    }
  }

  /**
   * Connected (once, bounded), back after a drop (the shared wait, bounded) and checked (bounded).
   * A bound that runs out starts an outage.
   */
  async #usable(): Promise<void> {
    if (this.#refusal) throw this.#refusal;
    await this.#bounded(this.#connect());
    if (this.#refusal) throw this.#refusal;
    if (!this.#client.isReady) {
      if (this.#closed) throw new Error('The Redis budget is closed');
      // A restarted Redis is back within moments: waiting (bounded) keeps this process counted
      // in Redis, where the holders re-take their leases, instead of counting alone.
      this.#reconnected ??= this.#bounded(
        this.#nextReady(),
        `timed out: the dropped connection did not come back within ${this.#options.commandTimeout} ms`,
      ).finally(() => {
        this.#reconnected = undefined;
      });
      await this.#reconnected;
    }
    if (!this.#checked) await this.#bounded(this.#checkAccess());
    if (this.#refusal) throw this.#refusal;
  }

  /** `promise` within the command timeout; past it, an outage starts (`words` its reason). */
  #bounded<T>(promise: Promise<T>, words?: string): Promise<T> {
    return withTimeout(promise, this.#options.commandTimeout, words).catch((cause: unknown) => {
      if (cause instanceof RedisTimeout) this.failed(cause);
      throw cause;
    });
  }

  /** `promise`, or `RedisDown` as soon as an outage starts (whoever found it). */
  #untilOutage<T>(promise: Promise<T>): Promise<T> {
    let end: (down: RedisDown) => void = () => {};
    const down = new Promise<never>((_, reject) => {
      end = reject;
    });
    this.#waits.add(end);
    return Promise.race([promise, down]).finally(() => this.#waits.delete(end));
  }

  /** The client's next 'ready' (it reconnects by itself). */
  #nextReady(): Promise<void> {
    return new Promise<void>((resolve) => this.#client.once('ready', () => resolve()));
  }

  /**
   * The end of `outage`: once Redis passes the access check again (one probe at a time, kept
   * while the server may be frozen: it answers it when it resumes, a reconnected one at once; a
   * connection that cannot end it is made anew, `#probe`; it writes, so a replica's or a full
   * memory's error reply is no end, and a Redis that now refuses the budget ends it with the
   * refusal), the budget re-takes in Redis the
   * leases it holds (the fallback's calls included) before any call uses Redis again, so that a
   * process back from an outage never has Redis grant slots its running calls already use.
   */
  async #recover(outage: OutageState): Promise<void> {
    for (let tries = 0; this.#outage === outage && !this.#closed; tries++) {
      try {
        if (!this.#client.isReady) {
          void this.#connect();
          await this.#nextReady();
        }
        await this.#probe();
        // (Refused on the way back: the calls and `ready()` fail with the refusal from now on.)
        if (!this.#refusal && !this.#closed) {
          for (const listener of this.#recoveryListeners) await listener();
        }
        this.#outage = undefined;
        outage.end();
        return;
      } catch {
        const pause = reconnectPause(tries, this.#msIntoOutage(), this.#options);
        await new Promise((resolve) => setTimeout(resolve, pause).unref?.());
      }
    }
  }

  /**
   * The access check of `#recover`, bounded by the command timeout. The connection is made anew
   * (both: the pub/sub one went where the script one did) when it cannot end the outage:
   * - Redis answers that this node is a replica (READONLY, MASTERDOWN): after a failover the URL
   *   (an endpoint that follows the primary) may lead to the new primary, which only a new
   *   connection reaches. A URL naming a replica itself gets the same answer again.
   * - the probe got no answer while a fresh connection to the URL answers, and the probe stays
   *   silent one command timeout more after that answer: the host this socket leads to vanished
   *   (no reset ever comes) and the URL's address moved on. A frozen server answers neither, so
   *   the probe waits for it on the same connection, where its late answer comes after the
   *   scripts sent before it (a release follows the acquire it undoes). A slow one (another
   *   app's long script) answers both when it is done, the old connection's probe too, if not
   *   before the fresh one then shortly after: that connection is kept.
   */
  async #probe(): Promise<void> {
    const { commandTimeout } = this.#options;
    // (Once checked, the scripts' probe alone: a pending SUBSCRIBE would hold up a close.)
    const probe = this.#checkAccess(!this.#checked);
    try {
      await withTimeout(probe, commandTimeout);
    } catch (cause) {
      const onAReplica = isErrorReply(cause) && /^(READONLY|MASTERDOWN)\b/.test(cause.message);
      if (onAReplica) this.#reconnectBoth();
      else if (cause instanceof RedisTimeout && (await this.#freshAnswers())) {
        // (Any end of the probe but silence, an answer or an error, says the socket is alive.)
        const silent = await withTimeout(probe, commandTimeout).then(
          () => false,
          (late: unknown) => late instanceof RedisTimeout,
        );
        if (silent) this.#reconnectBoth();
      }
      throw cause;
    }
  }

  /** Whether a new connection to the URL gets an answer within the command timeout (any reply:
   *  an error reply is an answer too). A harmless EVAL: no command the ACL user may lack. */
  async #freshAnswers(): Promise<boolean> {
    if (this.#closed) return false;
    const fresh = createClient(clientOptions(this.#options, () => new Error('no retry')));
    fresh.on('error', () => {});
    try {
      await withTimeout(
        fresh.connect().then(() => fresh.eval('return 1', { keys: [], arguments: [] })),
        this.#options.commandTimeout,
      );
      return true;
    } catch (cause) {
      return isErrorReply(cause);
    } finally {
      fresh.destroy();
    }
  }

  /** Drops both connections and opens them anew (the subscriptions are made again on the new
   *  one; the commands waiting on the old one fail, and a release is sent again). */
  #reconnectBoth(): void {
    if (this.#closed) return;
    this.#connecting = Promise.all(
      [this.#client, this.#subscriber].map((c) => {
        c.destroy();
        return c.connect();
      }),
    ).then(
      () => {},
      () => {},
    );
  }

  #connect(): Promise<void> {
    this.#connecting ??= Promise.all([this.#client.connect(), this.#subscriber.connect()]).then(
      () => {},
      () => {},
    );
    return this.#connecting;
  }

  /** Once per budget (again after a check that got no answer): may this user do its work? */
  #checkAccess(subscribing = true): Promise<void> {
    this.#checking ??= checkAccess(
      {
        evalProbe: (keys, args) => {
          this.#options.onSend();
          return this.#client.eval(PROBE_SCRIPT, { keys, arguments: args });
        },
        subscribeProbe: async (channel) => {
          if (!subscribing) return;
          await this.#subscriber.subscribe(channel, () => {});
          await this.#subscriber.unsubscribe(channel);
        },
        onAllKeysEviction: (policy) => this.#options.onAllKeysEviction(policy),
      },
      this.#options.probe,
    )
      .then(
        (refusal) => {
          this.#checked = true;
          if (refusal) this.#refusal ??= refusal;
        },
        (cause: unknown) => {
          // READONLY, OOM, LOADING: Redis's state, not the user's rights (the probe tries again).
          if (isErrorReply(cause)) this.failed(cause);
          throw cause;
        },
      )
      .finally(() => {
        this.#checking = undefined;
      });
    return this.#checking;
  }
}
