import { createClient } from 'redis';

type RedisClient = ReturnType<typeof createClient>;

/** Redis did not answer within `commandTimeoutMs` (it may still run the command later). */
export class RedisTimeout extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = 'RedisTimeout';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisTimeout(ms)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The budget's two connections: scripts on one, pub/sub (wake-ups, census) on the other. */
export interface RedisConnection {
  /**
   * Runs a script. Waits (at most the command timeout) for a dropped connection to come back,
   * then rejects past the command timeout: a `RedisTimeout` means the script may still run.
   */
  run(script: string, keys: string[], args: string[]): Promise<unknown>;
  /** Calls `wake` with each message on `channel`; resolves (even unsubscribed, bounded) with a
   *  function that stops it. */
  subscribe(channel: string, wake: (message: string) => void): Promise<() => void>;
  /** Calls `listener` each time the script connection is (again) ready. */
  onReady(listener: () => void): void;
  readonly closed: boolean;
  close(): Promise<void>;
}

/** `onSend` counts each script actually sent (the budget's `roundTrips`). */
export function connectRedis(
  url: string,
  commandTimeout: number,
  onSend: () => void,
): RedisConnection {
  const socket = {
    connectTimeout: commandTimeout,
    // Keep trying in the background; a call waits for it at most `commandTimeoutMs` (no offline
    // queue: commands are never sent late from a buffer).
    reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000),
  };
  const client: RedisClient = createClient({ url, disableOfflineQueue: true, socket });
  const subscriber: RedisClient = client.duplicate();
  client.on('error', () => {});
  subscriber.on('error', () => {});
  const wakers = new Map<string, Set<(message: string) => void>>();
  let closed = false;
  let connecting: Promise<unknown> | undefined;
  const connect = () => {
    connecting ??= Promise.all([client.connect(), subscriber.connect()]).catch(() => {});
    return connecting;
  };

  // One wait for the client's next 'ready' (reconnecting), shared by every caller.
  let reconnected: Promise<void> | undefined;
  async function whenReady(): Promise<void> {
    await withTimeout(connect(), commandTimeout);
    if (client.isReady) return;
    if (closed) throw new Error('The Redis budget is closed');
    reconnected ??= new Promise<void>((resolve) => {
      client.once('ready', () => {
        reconnected = undefined;
        resolve();
      });
    });
    // A restarted Redis is back within moments: waiting (bounded) keeps this process counted in
    // Redis, where the holders re-take their leases, instead of counting alone in the fallback.
    await withTimeout(reconnected, commandTimeout);
  }

  return {
    async run(script, keys, args) {
      await whenReady();
      onSend();
      return withTimeout(client.eval(script, { keys, arguments: args }), commandTimeout);
    },
    async subscribe(channel, wake) {
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
    },
    onReady(listener) {
      client.on('ready', listener);
    },
    get closed() {
      return closed;
    },
    async close() {
      closed = true;
      // A graceful close waits for the server; when it is gone, drop the sockets instead.
      for (const c of [client, subscriber]) {
        if (c.isReady) await withTimeout(c.close(), commandTimeout).catch(() => c.destroy());
        else if (c.isOpen) c.destroy();
      }
    },
  };
}
