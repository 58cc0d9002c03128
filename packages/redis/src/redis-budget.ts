import {
  type BudgetAcquireRequest,
  type BudgetLease,
  createInProcessBudget,
  GatewayError,
  type KeyBudget,
} from '@infergate/core';
import { createClient } from 'redis';
import { ACQUIRE_SCRIPT, REFRESH_SCRIPT, RELEASE_SCRIPT } from './lease-scripts';

type RedisClient = ReturnType<typeof createClient>;

export interface RedisBudgetOptions {
  /** `redis://host:port` or `rediss://…` (TLS, e.g. Upstash). */
  url: string;
  /** Lease time to live: a crashed process's slot comes back after at most this. Default 15000. */
  leaseTtlMs?: number;
  /** Key prefix in Redis. Default `infergate:budget`. */
  keyPrefix?: string;
  /** Redis down or unreachable: `'fallback'` (default) uses an in-process budget and warns once;
   *  `'error'` fails the call with a GatewayError `network_error`. */
  onRedisFailure?: 'fallback' | 'error';
  /** Longest wait between two tries while queued when no wake-up arrives. Default 1000. */
  maxPollIntervalMs?: number;
  /** Bound on every Redis command; past it Redis counts as unreachable. Default 2000. */
  commandTimeoutMs?: number;
  /** Where the one warning goes. Default `console.warn`. */
  warn?: (message: string) => void;
}

export interface RedisBudgetStats {
  /** Leases this process saw expire (removed by TTL, or found gone when refreshing). */
  expiredLeases: number;
  /** Redis round trips made (acquire, refresh and release scripts). */
  roundTrips: number;
  /** Calls served by the in-process fallback while Redis was unreachable. */
  fallbackAcquires: number;
}

export interface RedisBudget extends KeyBudget {
  readonly stats: RedisBudgetStats;
  /** Closes the Redis connections. */
  close(): Promise<void>;
}

let tokenCounter = 0;

function newToken(): string {
  tokenCounter += 1;
  return `${crypto.randomUUID()}:${tokenCounter}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * A KeyBudget shared by every process that points at the same Redis: a counting semaphore per
 * budget id (already a hash of origin and key; the key itself never reaches Redis).
 */
export function createRedisBudget(options: RedisBudgetOptions): RedisBudget {
  const ttl = options.leaseTtlMs ?? 15_000;
  const prefix = options.keyPrefix ?? 'infergate:budget';
  const policy = options.onRedisFailure ?? 'fallback';
  const maxPoll = options.maxPollIntervalMs ?? 1000;
  const commandTimeout = options.commandTimeoutMs ?? 2000;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const stats: RedisBudgetStats = { expiredLeases: 0, roundTrips: 0, fallbackAcquires: 0 };
  const fallback = createInProcessBudget();
  let warned = false;
  const wakers = new Map<string, Set<(message: string) => void>>();
  // Per id, at most `limit` waiters of this process contend in Redis; the others wait here in FIFO
  // order. Without it every release wakes every waiter of every process (a thundering herd).
  const gates = new Map<string, { contending: number; waiting: (() => void)[] }>();

  function enterGate(id: string, limit: number, signal: AbortSignal): Promise<() => void> {
    let gate = gates.get(id);
    if (!gate) {
      gate = { contending: 0, waiting: [] };
      gates.set(id, gate);
    }
    const g = gate;
    const leave = () => {
      const next = g.waiting.shift();
      if (next) next();
      else {
        g.contending -= 1;
        if (g.contending === 0) gates.delete(id);
      }
    };
    if (g.contending < limit) {
      g.contending += 1;
      return Promise.resolve(leave);
    }
    return new Promise((resolve, reject) => {
      const enter = () => {
        signal.removeEventListener('abort', onAbort);
        resolve(leave);
      };
      const onAbort = () => {
        const at = g.waiting.indexOf(enter);
        if (at >= 0) g.waiting.splice(at, 1);
        reject(signal.reason);
      };
      g.waiting.push(enter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  const socket = {
    connectTimeout: commandTimeout,
    // Keep trying in the background, but calls never wait for it (no offline queue).
    reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000),
  };
  const client: RedisClient = createClient({ url: options.url, disableOfflineQueue: true, socket });
  const subscriber: RedisClient = client.duplicate();
  client.on('error', () => {});
  subscriber.on('error', () => {});
  let connecting: Promise<unknown> | undefined;
  const connect = () => {
    connecting ??= Promise.all([client.connect(), subscriber.connect()]).catch(() => {});
    return connecting;
  };

  const keysOf = (id: string) => {
    const base = `{${prefix}:${id}}`;
    return {
      holders: `${base}:holders`,
      queue: `${base}:queue`,
      seen: `${base}:seen`,
      seq: `${base}:seq`,
      expired: `${base}:expired`,
      channel: `${base}:released`,
    };
  };

  async function run(script: string, keys: string[], args: string[]): Promise<unknown> {
    await withTimeout(connect(), commandTimeout);
    if (!client.isReady) throw new Error('Redis is not connected');
    stats.roundTrips += 1;
    return withTimeout(client.eval(script, { keys, arguments: args }), commandTimeout);
  }

  async function subscribe(channel: string, wake: (message: string) => void): Promise<() => void> {
    let set = wakers.get(channel);
    if (!set) {
      set = new Set();
      wakers.set(channel, set);
      const listeners = set;
      await withTimeout(
        subscriber.subscribe(channel, (message: string) => {
          for (const w of listeners) w(message);
        }),
        commandTimeout,
      ).catch(() => {}); // bounded polling still wakes us
    }
    set.add(wake);
    const listeners = set;
    return () => {
      listeners.delete(wake);
      if (listeners.size === 0 && wakers.get(channel) === listeners) {
        wakers.delete(channel);
        subscriber.unsubscribe(channel).catch(() => {});
      }
    };
  }

  function redisFailed(request: BudgetAcquireRequest, cause: unknown): Promise<BudgetLease> {
    if (policy === 'error') {
      throw new GatewayError({
        code: 'network_error',
        message: 'The shared key budget is unavailable: Redis cannot be reached',
        cause,
        isRetryable: true,
      });
    }
    if (!warned) {
      warned = true;
      warn(
        '@infergate/redis: Redis cannot be reached; using an in-process budget (limit per process, not shared) until it is back',
      );
    }
    stats.fallbackAcquires += 1;
    return fallback.acquire(request);
  }

  function holdLease(id: string, token: string, limit: number): BudgetLease {
    const keys = keysOf(id);
    let released = false;
    const refresh = setInterval(
      () => {
        run(REFRESH_SCRIPT, [keys.holders], [token, String(ttl)])
          .then((held) => {
            if (Number(held) === 0 && !released) {
              stats.expiredLeases += 1;
              clearInterval(refresh);
            }
          })
          .catch(() => {}); // the lease runs out by its TTL if Redis stays away
      },
      Math.max(10, Math.floor(ttl / 3)),
    );
    refresh.unref?.();
    return {
      release() {
        if (released) return;
        released = true;
        clearInterval(refresh);
        run(
          RELEASE_SCRIPT,
          [keys.holders, keys.queue, keys.seen],
          [token, keys.channel, String(limit)],
        ).catch(() => {}); // not released in Redis: it expires by its TTL
      },
    };
  }

  async function acquire(request: BudgetAcquireRequest): Promise<BudgetLease> {
    const { id, limit, signal } = request;
    signal.throwIfAborted();
    const leaveGate = await enterGate(id, limit, signal);
    try {
      return await acquireInRedis(request);
    } finally {
      leaveGate();
    }
  }

  async function acquireInRedis(request: BudgetAcquireRequest): Promise<BudgetLease> {
    const { id, limit, signal } = request;
    const keys = keysOf(id);
    const token = newToken();
    const scriptKeys = [keys.holders, keys.queue, keys.seen, keys.seq, keys.expired];
    const args = [token, String(limit), String(ttl)];
    let wake: (() => void) | undefined;
    let unsubscribe: (() => void) | undefined;
    const leaveQueue = () =>
      run(
        RELEASE_SCRIPT,
        [keys.holders, keys.queue, keys.seen],
        [token, keys.channel, String(limit)],
      ).catch(() => {});
    try {
      for (let attempt = 0; ; attempt++) {
        let answer: unknown;
        try {
          answer = await run(ACQUIRE_SCRIPT, scriptKeys, args);
        } catch (cause) {
          if (signal.aborted) throw signal.reason;
          return await redisFailed(request, cause);
        }
        const [granted, expired] = answer as [number, number];
        stats.expiredLeases += Number(expired);
        if (signal.aborted) {
          // Granted or queued just as the caller left: give it back.
          void leaveQueue();
          throw signal.reason;
        }
        if (Number(granted) === 1) return holdLease(id, token, limit);
        if (!unsubscribe) {
          // Woken only when a release names this waiter among the first in line.
          unsubscribe = await subscribe(keys.channel, (message) => {
            if (message.split(' ').includes(token)) wake?.();
          });
        }
        // Wait for a release message, the caller's abort, or a bounded poll (lost messages).
        const pause = Math.min(maxPoll, 50 * 2 ** Math.min(attempt, 5), Math.max(10, ttl / 3));
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            wake = undefined;
            resolve();
          };
          const timer = setTimeout(done, pause);
          wake = done;
          signal.addEventListener('abort', done, { once: true });
        });
        if (signal.aborted) {
          void leaveQueue();
          throw signal.reason;
        }
      }
    } finally {
      unsubscribe?.();
    }
  }

  return {
    stats,
    acquire,
    async close() {
      // A graceful close waits for the server; when it is gone, drop the sockets instead.
      for (const c of [client, subscriber]) {
        if (c.isReady) await withTimeout(c.close(), commandTimeout).catch(() => c.destroy());
        else if (c.isOpen) c.destroy();
      }
    },
  };
}
