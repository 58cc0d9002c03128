import { isGatewayError } from './errors';
import type {
  GatewayDoneEvent,
  GatewayEvent,
  GatewayEventHandler,
  GatewayOperation,
} from './gateway-events';
import { readUsage } from './read-usage';
import type { AssembledChat, Usage } from './types';

/** Ids of calls in this realm: every event of one call carries its id. */
let lastCallId = 0;

const OPERATIONS: Readonly<Record<string, GatewayOperation>> = {
  '/chat/completions': 'chat',
  '/embeddings': 'embeddings',
  '/translations': 'translation',
  '/ocr': 'ocr',
  '/audio/transcriptions': 'transcription',
  '/models': 'models',
  '/capabilities': 'capabilities',
};

export interface CallEventsInit {
  onEvent: GatewayEventHandler;
  recordContent: boolean;
  /** Removes the API key from content (which may echo it). */
  redact: (text: string) => string;
  method: 'GET' | 'POST';
  path: string;
  requestedModel: string | undefined;
  stream: boolean;
  body: string | FormData | undefined;
  budgetId: string;
  serverAddress: string;
  serverPort: number;
}

/** An event without the fields every event has. */
type EventFields = GatewayEvent extends infer E
  ? E extends GatewayEvent
    ? Omit<E, 'callId' | 'operation' | 'time'>
    : never
  : never;

/**
 * The events of one call, built only when the client has an `onEvent` hook (a client without
 * one creates none: the hot path pays one `undefined` check per step).
 */
export class CallEvents {
  readonly #onEvent: GatewayEventHandler;
  readonly #redact: (text: string) => string;
  readonly #callId = ++lastCallId;
  readonly #operation: GatewayOperation;
  readonly #requestedModel: string | undefined;
  readonly #startedAt = performance.now();
  readonly recordContent: boolean;
  #attempts = 0;
  #queueWaitMs = 0;
  #queuedAt = 0;
  #sentAt = 0;
  #servedModel: string | undefined;
  #ended = false;

  constructor(init: CallEventsInit) {
    this.#onEvent = init.onEvent;
    this.#redact = init.redact;
    this.recordContent = init.recordContent;
    this.#operation = OPERATIONS[init.path] ?? 'other';
    this.#requestedModel = init.requestedModel;
    this.#send({
      type: 'start',
      method: init.method,
      path: init.path,
      serverAddress: init.serverAddress,
      serverPort: init.serverPort,
      ...(init.requestedModel === undefined ? {} : { requestedModel: init.requestedModel }),
      stream: init.stream,
      budgetId: init.budgetId,
      ...(this.recordContent && typeof init.body === 'string'
        ? { input: init.redact(init.body) }
        : {}),
    });
  }

  queued(attempt: number, budgetId: string): void {
    this.#queuedAt = performance.now();
    this.#send({ type: 'queued', attempt, budgetId });
  }

  dequeued(attempt: number, budgetId: string): void {
    const waitMs = performance.now() - this.#queuedAt;
    this.#queueWaitMs += waitMs;
    this.#send({ type: 'dequeued', attempt, budgetId, waitMs });
  }

  released(attempt: number, budgetId: string): void {
    this.#send({ type: 'released', attempt, budgetId });
  }

  attempt(attempt: number, method: 'GET' | 'POST', path: string): void {
    this.#attempts = attempt;
    this.#sentAt = performance.now();
    this.#send({
      type: 'attempt',
      attempt,
      method,
      path,
      ...(this.#requestedModel === undefined ? {} : { requestedModel: this.#requestedModel }),
    });
  }

  /** An attempt's outcome: `error` is the error it failed with (a 2xx has none). */
  response(attempt: number, status: number | undefined, error?: unknown): void {
    const durationMs = performance.now() - this.#sentAt;
    const gatewayError = isGatewayError(error) ? error : undefined;
    this.#send({
      type: 'response',
      attempt,
      ok: error === undefined,
      ...(status === undefined ? {} : { status }),
      ...(gatewayError ? { code: gatewayError.code } : {}),
      ...(gatewayError?.retryAfterMs === undefined
        ? {}
        : { retryAfterMs: gatewayError.retryAfterMs }),
      durationMs,
    });
  }

  retry(attempt: number, delayMs: number, error: unknown): void {
    if (!isGatewayError(error)) return;
    this.#send({
      type: 'retry',
      attempt,
      delayMs,
      reason: error.code,
      ...(error.status === undefined ? {} : { status: error.status }),
    });
  }

  /** The answering model, when the answer names it; the first name given wins. */
  served(model: unknown): void {
    if (typeof model !== 'string' || model === '' || this.#servedModel !== undefined) return;
    this.#servedModel = model;
    const requested = this.#requestedModel;
    if (requested !== undefined && model !== requested) {
      this.#send({ type: 'fallback', requestedModel: requested, servedModel: model });
    }
  }

  /** The answer was read. `output` is the answer's text, used only with `recordContent`. */
  succeeded(usage?: Usage | null, output?: () => string): void {
    const counts = readUsage(usage);
    this.#done({
      ok: true,
      servedModel: this.#servedModel ?? this.#requestedModel,
      ...(counts === undefined ? {} : { usage: counts }),
      ...(this.recordContent && output ? { output: this.#redact(output()) } : {}),
    });
  }

  failed(error: unknown): void {
    const code = isGatewayError(error)
      ? error.code
      : error instanceof Error
        ? error.name
        : typeof error;
    const status = isGatewayError(error) ? error.status : undefined;
    this.#done({
      ok: false,
      ...(this.#servedModel === undefined ? {} : { servedModel: this.#servedModel }),
      error: status === undefined ? { code } : { code, status },
    });
  }

  /** A chat stream ended: read to its end (`answer`), or failed or cancelled (`error`). */
  streamEnded(error: unknown, answer: AssembledChat | undefined): void {
    if (error !== undefined || answer === undefined) {
      this.failed(error);
      return;
    }
    this.served(this.#requestedModel);
    this.succeeded(answer.usage, () => JSON.stringify(answer));
  }

  #done(
    fields: Omit<
      GatewayDoneEvent,
      'type' | 'callId' | 'operation' | 'time' | 'durationMs' | 'attempts' | 'queueWaitMs'
    >,
  ): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#send({
      type: 'done',
      durationMs: performance.now() - this.#startedAt,
      attempts: this.#attempts,
      queueWaitMs: this.#queueWaitMs,
      ...(this.#requestedModel === undefined ? {} : { requestedModel: this.#requestedModel }),
      ...fields,
    });
  }

  #send(body: EventFields): void {
    const event = {
      callId: this.#callId,
      operation: this.#operation,
      time: Date.now(),
      ...body,
    } as GatewayEvent;
    try {
      const result: unknown = this.#onEvent(event);
      // An async hook's rejection must not become an unhandled rejection either.
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
        (result as PromiseLike<unknown>).then(undefined, ignore);
      }
    } catch {
      // A hook that throws must not change the call's outcome.
    }
  }
}

function ignore(): void {}

/** `server.address` and `server.port` of a base URL. */
export function serverOf(baseURL: string): { address: string; port: number } {
  const url = new URL(baseURL);
  const address = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { address, port };
}
