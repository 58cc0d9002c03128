import { ConnectionTimeoutError, ErrorReply, SocketClosedUnexpectedlyError } from 'redis';

/**
 * Redis known to be unreachable: from the first command that got no answer in time, or the first
 * refused connection, until Redis answers again and the budget re-took what it holds. Meanwhile no
 * call waits for Redis: each takes the failure policy at once (`acquireLease`), and the connection
 * watches for Redis in the background (`redis-connection.ts`).
 */
export interface Outage {
  /** What is wrong: `Redis cannot be reached`, or `Redis answers with an error` (an error reply
   *  such as READONLY or OOM: Redis is there, but does not do the budget's work). */
  readonly headline: string;
  /** Why, in words safe to log (never the URL: it may hold a password). */
  readonly summary: string;
  /**
   * Started by a refused reconnection of a connection that worked (Redis stopped, or restarting):
   * the calls already waiting in Redis's queue wait for its end, at most the command timeout
   * from `since` (a restarted Redis is back within moments, and they keep their turn), while
   * every other call takes the failure policy at once.
   */
  readonly keepsPlaces: boolean;
  /** Started by an error reply (READONLY, OOM, …): Redis answered, so nothing is gained by
   *  waiting for it within a call; it ends once a probe finds a writable primary again. */
  readonly answered: boolean;
  /** When it started, on the monotonic clock (`performance.now()`). */
  readonly since: number;
  /** The same, naming the URL's scheme when the server speaks the other one (checked once, within
   *  the command timeout). */
  readonly reason: Promise<string>;
  /** Resolves when Redis answers again and the leases held are re-taken in it. */
  readonly ended: Promise<void>;
}

/** Thrown instead of waiting for Redis while an outage is known. */
export class RedisDown extends Error {
  constructor(summary: string, headline = UNREACHABLE) {
    super(`${headline} (${summary})`);
    this.name = 'RedisDown';
  }
}

const UNREACHABLE = 'Redis cannot be reached';
const ANSWERS_AN_ERROR = 'Redis answers with an error';

/**
 * Whether `cause` is Redis's own error reply (READONLY, OOM, LOADING, BUSY, …): an answer, not a
 * lost connection. Waiting or retrying does not help within a call: it starts an outage at once.
 * (A refusal of the budget, NOPERM or WRONGPASS, is told apart first: `redis-access.ts`.)
 */
export function isErrorReply(cause: unknown): cause is Error {
  return cause instanceof ErrorReply || (cause as Error | null)?.name === 'RedisErrorReply';
}

/** Hints for the error replies a misdirected or failing-over URL gets. */
const REPLY_HINTS: Record<string, string> = {
  READONLY:
    '`url` reaches a read-only replica: after a failover the budget reconnects until `url` leads to the new primary; a reader endpoint: point it at the primary',
  OOM: "Redis's memory is full (maxmemory): the budget works again once Redis accepts writes",
  LOADING: 'Redis is loading its data after a restart',
  MASTERDOWN:
    'the replica lost its primary: the budget reconnects until `url` leads to a primary (point it at the primary)',
};

/** An error reply's own words (its first line, bounded: Redis never quotes the URL), and a hint. */
function replyWords(reply: Error): string {
  // (Redis 7 adds where in a script it failed: noise to the reader.)
  const line = (reply.message.split('\n')[0] ?? '')
    .replace(/ script: [0-9a-f]+, on @user_script:\d+\.?$/, '')
    .slice(0, 200);
  const hint = REPLY_HINTS[line.split(' ')[0] ?? ''];
  return hint === undefined ? `"${line}"` : `"${line}": ${hint}`;
}

/** Codes that say nothing listens at the address: no scheme question to ask. */
const NOBODY_THERE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Whether a connection attempt found nobody at the address (Redis stopped, a wrong port). */
export function nobodyThere(cause: unknown): boolean {
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NOBODY_THERE.has(code);
}

/**
 * Words for what failed, from its class and code only (a message may quote the URL): refused,
 * timed out, and the like. (A refusal of the budget itself, WRONGPASS or a certificate, is a
 * configuration error with its own message: `redis-access.ts`.)
 */
export function failureWords(cause: unknown, commandTimeout: number): string {
  const code = (cause as { code?: unknown } | null)?.code;
  if ((cause as Error | null)?.name === 'RedisTimeout') return (cause as Error).message;
  if (isErrorReply(cause)) return replyWords(cause);
  if (cause instanceof ConnectionTimeoutError) {
    return `timed out: no answer within ${commandTimeout} ms`;
  }
  if (cause instanceof SocketClosedUnexpectedlyError) return 'the connection was closed';
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
  }
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : 'the connection failed';
}

/**
 * Whether a failure may come from the URL's scheme: only on a connection that never worked (a
 * scheme that worked once is not the problem) and when something answered at the address.
 */
export function mayBeTheScheme(cause: unknown, everConnected: boolean): boolean {
  return !everConnected && !nobodyThere(cause) && !isErrorReply(cause);
}

/** A started outage, ended by `end()` (the connection's recovery). */
export interface OutageState extends Outage {
  end(): void;
}

/**
 * Starts an outage. `schemeHint`, when given, asks the server which scheme it speaks: its answer,
 * when it names a mismatch, replaces the plain words in `reason`.
 */
export function startOutage(
  summary: string,
  schemeHint: (() => Promise<string | undefined>) | undefined,
  keepsPlaces = false,
  answered = false,
): OutageState {
  let end = () => {};
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  const reason =
    schemeHint === undefined
      ? Promise.resolve(summary)
      : schemeHint().then(
          (hint) => (hint === undefined ? summary : `${summary}; ${hint}`),
          () => summary,
        );
  const headline = answered ? ANSWERS_AN_ERROR : UNREACHABLE;
  return { headline, summary, keepsPlaces, answered, since: performance.now(), reason, ended, end };
}
