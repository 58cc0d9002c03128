// docs/gateway-protocol.md §2.5 (a call waiting for one of the key's slots), §10.5 (retries): told
// as MCP progress.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { GatewayEvent } from '@infergate/core';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * How often a waiting call says it still waits, by default: below even short client timeouts (3 s).
 * One rule for every wait of a gateway call (for a slot, or out a Retry-After before a retry).
 */
export const QUEUE_PROGRESS_MS = 2_000;

/** What a waiting gateway call waits for: the message its reminders say, and whether it is a retry's wait. */
interface Wait {
  still: string;
  retry: boolean;
}

/** MCP progress of one tool call: notifications only when the client sent a `progressToken`. */
export class ToolProgress {
  readonly #extra: ToolExtra;
  readonly #token: string | number | undefined;
  readonly #queueProgressMs: number;
  #progress = 0;
  #finished = false;
  /** The gateway calls of this tool call waiting (for a slot, or to retry), by call id. */
  readonly #waiting = new Map<number, Wait>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  /** `queueProgressMs`: how often a waiting call says so again (0: once, when it starts waiting). */
  constructor(extra: ToolExtra, queueProgressMs = QUEUE_PROGRESS_MS) {
    this.#extra = extra;
    this.#token = extra._meta?.progressToken;
    this.#queueProgressMs = queueProgressMs;
  }

  /**
   * A gateway call of this tool call waits for one of the key's slots: told now, then again every
   * `queueProgressMs` until it has one (or the tool call ends), so that a client resetting its
   * timeout on progress keeps waiting however long the key stays busy.
   */
  waiting(callId: number, operation: string): void {
    const wait = {
      still: `${operation}: still waiting for one of the gateway key's slots`,
      retry: false,
    };
    this.#waiting.set(callId, wait);
    // Core tells `queued` for every request, and `dequeued` at once (in the same turn) when a slot
    // is free: only a call still waiting after that turn is told it waits.
    queueMicrotask(() => {
      if (this.#waiting.get(callId) !== wait) return;
      this.#wait(callId, `${operation}: waiting for one of the gateway key's slots`, wait);
    });
  }

  /**
   * A gateway call waits out a retry's delay (a 429's Retry-After can be long): told now, then
   * again as a slot's wait is, until its next attempt (or the tool call ends).
   */
  retrying(callId: number, operation: string, reason: string, delayMs: number): void {
    this.#wait(callId, `${operation}: ${reason}, retrying in ${Math.ceil(delayMs / 1000)} s`, {
      still: `${operation}: still waiting to retry (${reason})`,
      retry: true,
    });
  }

  #wait(callId: number, message: string, wait: Wait): void {
    this.#waiting.set(callId, wait);
    this.step(message);
    if (this.#heartbeat !== undefined || this.#queueProgressMs === 0 || !this.wanted) return;
    this.#heartbeat = setInterval(() => this.#stillWaiting(), this.#queueProgressMs);
    // A waiting call's reminder must not keep the process alive on its own.
    this.#heartbeat.unref?.();
  }

  /** The gateway call has its slot, or ended while waiting (cancelled, timed out). */
  notWaiting(callId: number): void {
    if (this.#waiting.delete(callId) && this.#waiting.size === 0) this.#stopHeartbeat();
  }

  /** The gateway call sent an attempt: a retry's wait is over (a slot's wait ends on its own event). */
  attempted(callId: number): void {
    if (this.#waiting.get(callId)?.retry === true) this.notWaiting(callId);
  }

  #stillWaiting(): void {
    if (this.#finished || this.#extra.signal.aborted) {
      this.#stopHeartbeat();
      return;
    }
    this.step([...new Set([...this.#waiting.values()].map((wait) => wait.still))].join('; '));
  }

  #stopHeartbeat(): void {
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }

  get wanted(): boolean {
    return this.#token !== undefined;
  }

  /** One step further (`progress` only grows, as MCP requires). */
  step(message: string, total?: number): void {
    if (this.#token === undefined || this.#finished || this.#extra.signal.aborted) return;
    this.#progress += 1;
    const params: {
      progressToken: string | number;
      progress: number;
      message: string;
      total?: number;
    } = { progressToken: this.#token, progress: this.#progress, message };
    if (total !== undefined) params.total = Math.max(total, this.#progress);
    // A notification that cannot be sent (the session went away) must not fail the call.
    this.#extra.sendNotification({ method: 'notifications/progress', params }).catch(() => {});
  }

  /**
   * The call settled: no step after it. MCP ends progress with the operation, and core tells some
   * events (a call's `done`) after the answer its caller already has.
   */
  finish(): void {
    this.#finished = true;
    this.#waiting.clear();
    this.#stopHeartbeat();
  }
}

/**
 * The tool call a gateway call belongs to: core calls its `onEvent` hook synchronously in the
 * calling code's async context, so the hook finds the call's progress here and reports what the
 * gateway call is doing (waiting for one of the key's slots, sent, retrying, answered).
 */
const currentCall = new AsyncLocalStorage<ToolProgress>();

export function withProgress<T>(progress: ToolProgress, run: () => Promise<T>): Promise<T> {
  return currentCall.run(progress, run);
}

/** Runs `run` as part of no tool call: core's events of it are no tool call's progress. */
export function withoutProgress<T>(run: () => Promise<T>): Promise<T> {
  return currentCall.exit(run);
}

/** The client's `onEvent` hook that turns core's events into the current tool call's progress. */
export function progressFromGatewayEvents(event: GatewayEvent): void {
  const progress = currentCall.getStore();
  if (progress === undefined || !progress.wanted) return;
  switch (event.type) {
    case 'queued':
      progress.waiting(event.callId, event.operation);
      break;
    case 'dequeued':
      progress.notWaiting(event.callId);
      break;
    case 'attempt':
      progress.attempted(event.callId);
      progress.step(
        `${event.operation}: sent to the gateway${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}`,
      );
      break;
    case 'retry':
      progress.retrying(event.callId, event.operation, event.reason, event.delayMs);
      break;
    case 'done':
      progress.notWaiting(event.callId);
      if (event.ok) progress.step(`${event.operation}: answered`);
      break;
  }
}
