import type { ConnectionOptions } from 'node:tls';
import { GatewayError } from '@infergate/core';
import { createClient } from 'redis';
import type { LeaseKeys } from './lease-scripts';
import { checkAccess, PROBE_SCRIPT, refusalOf } from './redis-access';

type RedisClient = ReturnType<typeof createClient>;

/** TLS settings for a `rediss://` URL: a private CA (Memorystore, self-hosted), a client certificate. */
export type RedisTlsOptions = Pick<
  ConnectionOptions,
  'ca' | 'cert' | 'key' | 'servername' | 'rejectUnauthorized'
>;

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
   * Rejects with the refusal once Redis refused the budget.
   */
  run(script: string, keys: string[], args: string[]): Promise<unknown>;
  /**
   * Calls `listener` with each message on `channel`, for the budget's life. Resolves (bounded by
   * the command timeout) with whether Redis confirmed the subscription; a failed one is tried
   * again by the next call.
   */
  subscribe(channel: string, listener: (message: string) => void): Promise<boolean>;
  /** Calls `listener` each time a connection is (again) ready: what it missed must be redone. */
  onReady(listener: () => void): void;
  /** Connects (once) and checks the budget's access; rejects with the refusal or a timeout. */
  ready(): Promise<void>;
  /** Set once Redis refused the budget: credentials, certificate, or the user's rights. */
  readonly refusal: GatewayError | undefined;
  readonly closed: boolean;
  close(): Promise<void>;
}

export interface ConnectOptions {
  url: string;
  commandTimeout: number;
  tls?: RedisTlsOptions;
  /** The keys and channel the access check works on (never a budget's own). */
  probe: LeaseKeys;
  /** Counts each script actually sent (the budget's `roundTrips`). */
  onSend(): void;
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
  let protocol: string;
  try {
    protocol = new URL(options.url).protocol;
  } catch {
    throw configurationError('`url` is not a URL (redis://host:port or rediss://user:pass@host)');
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw configurationError(`\`url\` must start with redis:// or rediss://, not ${protocol}//`);
  }
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
  /** One wait for the client's next 'ready' (reconnecting), shared by every caller. */
  #reconnected: Promise<void> | undefined;

  constructor(options: ConnectOptions) {
    this.#options = options;
    // Keep trying in the background (a call waits for it at most `commandTimeoutMs`; no offline
    // queue: commands are never sent late from a buffer), unless Redis refused the budget.
    const reconnectStrategy = (retries: number, cause: Error) => {
      const refusal = refusalOf(cause);
      if (refusal === undefined) return Math.min(100 * 2 ** retries, 2000);
      this.#refusal ??= refusal;
      return refusal;
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
    client.on('error', () => {});
    this.#subscriber.on('error', () => {});
  }

  get closed(): boolean {
    return this.#closed;
  }

  get refusal(): GatewayError | undefined {
    return this.#refusal;
  }

  async ready(): Promise<void> {
    if (this.#refusal) throw this.#refusal;
    await withTimeout(this.#connect(), this.#options.commandTimeout);
    if (this.#refusal) throw this.#refusal;
    if (!this.#client.isReady) {
      if (this.#closed) throw new Error('The Redis budget is closed');
      this.#reconnected ??= new Promise<void>((resolve) => {
        this.#client.once('ready', () => {
          this.#reconnected = undefined;
          resolve();
        });
      });
      // A restarted Redis is back within moments: waiting (bounded) keeps this process counted
      // in Redis, where the holders re-take their leases, instead of counting alone.
      await withTimeout(this.#reconnected, this.#options.commandTimeout);
    }
    if (!this.#checked) await withTimeout(this.#checkAccess(), this.#options.commandTimeout);
    if (this.#refusal) throw this.#refusal;
  }

  async run(script: string, keys: string[], args: string[]): Promise<unknown> {
    await this.ready();
    this.#options.onSend();
    try {
      return await withTimeout(
        this.#client.eval(script, { keys, arguments: args }),
        this.#options.commandTimeout,
      );
    } catch (cause) {
      // The user's rights changed since the check (or a script runs a command it did not probe).
      const refusal = refusalOf(cause);
      if (refusal === undefined) throw cause;
      this.#refusal ??= refusal;
      throw this.#refusal;
    }
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

  async close(): Promise<void> {
    this.#closed = true;
    // A graceful close waits for the server; when it is gone, drop the sockets instead.
    for (const c of [this.#client, this.#subscriber]) {
      if (c.isReady) {
        await withTimeout(c.close(), this.#options.commandTimeout).catch(() => c.destroy());
      } else if (c.isOpen) c.destroy();
    }
  }

  #connect(): Promise<void> {
    this.#connecting ??= Promise.all([this.#client.connect(), this.#subscriber.connect()]).then(
      () => {},
      () => {},
    );
    return this.#connecting;
  }

  /** Once per budget (again after a check that got no answer): may this user do its work? */
  #checkAccess(): Promise<void> {
    this.#checking ??= checkAccess(
      {
        evalProbe: (keys, args) => {
          this.#options.onSend();
          return this.#client.eval(PROBE_SCRIPT, { keys, arguments: args });
        },
        subscribeProbe: async (channel) => {
          await this.#subscriber.subscribe(channel, () => {});
          await this.#subscriber.unsubscribe(channel);
        },
      },
      this.#options.probe,
    )
      .then((refusal) => {
        this.#checked = true;
        if (refusal) this.#refusal ??= refusal;
      })
      .finally(() => {
        this.#checking = undefined;
      });
    return this.#checking;
  }
}
