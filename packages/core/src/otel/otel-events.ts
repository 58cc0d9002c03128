import {
  type Attributes,
  type Context,
  type Counter,
  context,
  type Histogram,
  type Meter,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
  type UpDownCounter,
} from '@opentelemetry/api';
import {
  kindOf,
  type ListsEveryKey,
  readFlags,
  refusal,
  refuseUnknownOptions,
} from '../call/option-groups';
import { GatewayError } from '../errors/errors';
import type {
  GatewayAttemptEvent,
  GatewayCircuitCloseEvent,
  GatewayCircuitOpenEvent,
  GatewayCircuitProbeEvent,
  GatewayDequeuedEvent,
  GatewayDoneEvent,
  GatewayEvent,
  GatewayEventHandler,
  GatewayFailoverEvent,
  GatewayFallbackEvent,
  GatewayHedgeEvent,
  GatewayHedgeSkippedEvent,
  GatewayModelDeferredEvent,
  GatewayModelSkippedEvent,
  GatewayQueuedEvent,
  GatewayReleasedEvent,
  GatewayResponseEvent,
  GatewayRetryEvent,
  GatewayStartEvent,
} from '../events/gateway-events';
import type { HopStructuredOutput } from '../protocol/chat-route';
import type { UsageCounts } from '../protocol/read-usage';
import { inputMessages, outputMessages } from './genai-messages';

/** Scope name of our tracer and meter. */
export const INSTRUMENTATION_SCOPE = '@infergate/core';

export interface OtelEventsOptions {
  /** Default: `trace.getTracer('@infergate/core')` of the global tracer provider. */
  tracer?: Tracer;
  /** Default: `metrics.getMeter('@infergate/core')` of the global meter provider. */
  meter?: Meter;
  /**
   * Whether a call span's token counts are `gen_ai.usage.input_tokens` / `output_tokens` (default
   * `true`), or `infergate.usage.*` (`false`): under the AI SDK's own GenAI span, which carries the
   * same counts, GenAI backends would count them twice.
   */
  genAiUsage?: boolean;
}

const OTEL_EVENTS_KEYS: readonly (keyof OtelEventsOptions)[] = ['tracer', 'meter', 'genAiUsage'];
true satisfies ListsEveryKey<OtelEventsOptions, typeof OTEL_EVENTS_KEYS>;

/** A provider given where its tracer or meter goes: what to give instead. */
const OTEL_EVENTS_HINTS = {
  tracerProvider: "give its tracer: `tracer: tracerProvider.getTracer('@infergate/core')`",
  meterProvider: "give its meter: `meter: meterProvider.getMeter('@infergate/core')`",
};

/** Where a refused value of `otelEvents` was given, in its message. */
const PLACE = 'otelEvents option';

/** The meter's calls `createInstruments` makes. */
const METER_METHODS = ['createHistogram', 'createUpDownCounter', 'createCounter'] as const;

/**
 * The options checked before the handler is made: a wrong tracer would otherwise record nothing,
 * silently (the handler's throw is swallowed by core), and a wrong meter throw a bare TypeError.
 */
function checkOtelEventsOptions(options: unknown): asserts options is OtelEventsOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new GatewayError({
      code: 'configuration_error',
      message: `otelEvents takes an options object or nothing, got ${kindOf(options)}`,
    });
  }
  // A key it does not read (`tracerProvider`, `traceer`) would record through the global providers
  // unseen: refused, naming the closest one.
  refuseUnknownOptions(options, OTEL_EVENTS_KEYS, 'otelEvents', PLACE, OTEL_EVENTS_HINTS);
  readFlags(options, ['genAiUsage'], PLACE);
  const { tracer, meter } = options as Record<string, unknown>;
  if (tracer !== undefined && !hasMethods(tracer, ['startSpan'])) {
    const provider = hasMethods(tracer, ['getTracer'])
      ? "a tracer provider: give its tracer, `tracerProvider.getTracer('@infergate/core')`"
      : kindOf(tracer);
    throw refusal(PLACE, 'tracer', `must be a Tracer (with startSpan), got ${provider}`);
  }
  if (meter !== undefined && !hasMethods(meter, METER_METHODS)) {
    const provider = hasMethods(meter, ['getMeter'])
      ? "a meter provider: give its meter, `meterProvider.getMeter('@infergate/core')`"
      : kindOf(meter);
    throw refusal(
      PLACE,
      'meter',
      `must be a Meter (with ${METER_METHODS.join(', ')}), got ${provider}`,
    );
  }
}

/** Whether `value` is an object with each of `methods` a function. */
function hasMethods(value: unknown, methods: readonly string[]): boolean {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const record = value as Record<string, unknown>;
  return methods.every((method) => typeof record[method] === 'function');
}

/** The instruments, created once per handler. */
interface Instruments {
  duration: Histogram;
  tokens: Histogram;
  queueWait: Histogram;
  slotsInUse: UpDownCounter;
  queued: UpDownCounter;
  retries: Counter;
  rateLimited: Counter;
  failovers: Counter;
}

/** What one call has open: its span, its queue or attempt span, and what it counts. */
interface CallState {
  span: Span;
  /** The active context with the call's span in it: parent of the queue and attempt spans. */
  context: Context;
  start: GatewayStartEvent;
  /** Attributes of the budget metrics (`infergate.budget.id`, `server.address`). */
  budget: Attributes;
  /** Open queue and attempt spans, per attempt (a hedged call has two attempts at once). */
  queueSpans: Map<number, Span>;
  attemptSpans: Map<number, Span>;
  /**
   * Attempts that failed with no code of their own (an answer handed over that failed with the
   * call: an abandoned stream's): their spans end with the call, its `error.type` theirs.
   */
  failedWithCall: Map<number, Span>;
  /** Attempts waiting for a slot, and holding one. */
  waiting: number;
  holding: number;
  fallback: boolean;
  /** A hedged call: whether its second attempt was sent, and which one won. */
  hedged?: boolean;
  hedgeWinner?: 'first' | 'hedge';
  /** Models left for the next one (`fallbackModels`). */
  failovers: number;
  /** Attempts sent so far per model asked for: an attempt's `http.request.resend_count`. */
  sentPerModel: Map<string, number>;
  /** The names of the call span's token counts (`genAiUsage`). */
  usage: UsagePrefix;
}

/** `gen_ai.usage.*`, or `infergate.usage.*` where another span counts the call's tokens. */
type UsagePrefix = 'gen_ai.usage' | 'infergate.usage';

// Seconds, as the GenAI conventions advise for gen_ai.client.operation.duration.
const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

function createInstruments(meter: Meter): Instruments {
  return {
    duration: meter.createHistogram('gen_ai.client.operation.duration', {
      description: 'Duration of a gateway call: queue, attempts, retries and the whole answer',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    tokens: meter.createHistogram('gen_ai.client.token.usage', {
      description: 'Tokens of a gateway call, by gen_ai.token.type (input, output)',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    queueWait: meter.createHistogram('infergate.client.queue.wait', {
      description: "Time an attempt waited for a slot of its client and its key's budget",
      unit: 's',
      advice: { explicitBucketBoundaries: [0, ...DURATION_BUCKETS] },
    }),
    slotsInUse: meter.createUpDownCounter('infergate.client.slots.in_use', {
      description: "Slots of the key's budget held by this process's calls",
      unit: '{slot}',
    }),
    queued: meter.createUpDownCounter('infergate.client.calls.queued', {
      description: "This process's calls waiting for a slot",
      unit: '{call}',
    }),
    retries: meter.createCounter('infergate.client.retries', {
      description:
        'Retries scheduled (a call ending during the wait sends none), by the failed attempt’s error.type (the gateway code)',
      unit: '{retry}',
    }),
    rateLimited: meter.createCounter('infergate.client.rate_limited', {
      description: 'HTTP 429 answers, by error.type (the gateway code)',
      unit: '{response}',
    }),
    failovers: meter.createCounter('infergate.client.failovers', {
      description:
        'Calls moved to their next fallback model at once, by error.type (the failover reason)',
      unit: '{failover}',
    }),
  };
}

/**
 * An `onEvent` handler that turns a client's events into OpenTelemetry spans and metrics, through
 * the global providers (or the `tracer` / `meter` given). Each call is a CLIENT span, child of the
 * span active when the call began (the AI SDK's or LangChain's, when they trace), with child
 * spans `infergate.queue` (waiting for a slot) and one per attempt.
 */
export function otelEvents(options: OtelEventsOptions = {}): GatewayEventHandler {
  // Where a dropped stream's call ends once collected, every call sends its `done`: no cap.
  const collected = typeof FinalizationRegistry === 'function';
  return otelEventsHandler(options, collected ? Number.POSITIVE_INFINITY : MAX_OPEN_CALLS);
}

/** `otelEvents`, forgetting calls past `maxOpenCalls` open ones (a test drives a small cap). */
export function otelEventsHandler(
  options: OtelEventsOptions,
  maxOpenCalls: number,
): GatewayEventHandler {
  checkOtelEventsOptions(options);
  const usage: UsagePrefix = options.genAiUsage === false ? 'infergate.usage' : 'gen_ai.usage';
  const tracer = options.tracer ?? trace.getTracer(INSTRUMENTATION_SCOPE);
  const instruments = createInstruments(options.meter ?? metrics.getMeter(INSTRUMENTATION_SCOPE));
  const calls = new Map<number, CallState>();
  return (event) => {
    if (event.type === 'start') {
      // A catalog read a call triggered is a child of that call's span, in its trace.
      const parent = event.parentCallId === undefined ? undefined : calls.get(event.parentCallId);
      calls.set(event.callId, begin(tracer, event, usage, parent?.context));
      if (calls.size > maxOpenCalls) forgetOne(calls, event.callId, instruments);
      return;
    }
    const call = calls.get(event.callId);
    if (!call) return;
    if (event.type === 'done') calls.delete(event.callId);
    record(tracer, instruments, call, event);
  };
}

/**
 * A safety net, not the way calls end: every call sends its `done` — a stream dropped unread
 * sends it once collected (`FinalizationRegistry`). Only where the runtime has none does a dropped
 * stream's call stay open for good: there, past this many open calls, one is forgotten
 * (`forgetOne`). Elsewhere no call is forgotten.
 */
export const MAX_OPEN_CALLS = 10_000;

/**
 * Forgets the oldest open call but the one just begun (`newest`): its spans end as they are
 * (`infergate.abandoned`), what it counted is given back to the up/down counters. (No open call
 * tells a dropped stream from a live one, so the oldest goes: a constant cost per call.)
 */
function forgetOne(calls: Map<number, CallState>, newest: number, instruments: Instruments): void {
  let chosen: number | undefined;
  for (const id of calls.keys()) {
    if (id === newest) continue;
    chosen = id;
    break;
  }
  const call = chosen === undefined ? undefined : calls.get(chosen);
  if (chosen === undefined || call === undefined) return;
  calls.delete(chosen);
  giveBack(instruments, call);
  endAll(call.queueSpans);
  endAll(call.attemptSpans);
  endAll(call.failedWithCall);
  call.span.setAttribute('infergate.abandoned', true);
  call.span.end();
}

/** Gives back to the up/down counters what `call` still counts: it is over, or forgotten. */
function giveBack(instruments: Instruments, call: CallState): void {
  if (call.waiting > 0) instruments.queued.add(-call.waiting, call.budget);
  if (call.holding > 0) instruments.slotsInUse.add(-call.holding, call.budget);
  call.waiting = 0;
  call.holding = 0;
}

function begin(
  tracer: Tracer,
  event: GatewayStartEvent,
  usage: UsagePrefix,
  within?: Context,
): CallState {
  const attributes: Attributes = {
    'gen_ai.operation.name': event.operation,
    'gen_ai.provider.name': 'infergate',
    'server.address': event.serverAddress,
    'server.port': event.serverPort,
    'infergate.budget.id': event.budgetId,
    'infergate.stream': event.stream,
  };
  if (event.requestedModel !== undefined) {
    attributes['gen_ai.request.model'] = event.requestedModel;
  }
  Object.assign(attributes, parameterAttributes(event.parameters));
  if (event.input !== undefined) {
    const messages = inputMessages(event.input);
    if (messages !== undefined) attributes['gen_ai.input.messages'] = messages;
  }
  const name =
    event.requestedModel === undefined
      ? event.operation
      : `${event.operation} ${event.requestedModel}`;
  const parent = within ?? context.active();
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
  return {
    span,
    context: trace.setSpan(parent, span),
    start: event,
    budget: { 'infergate.budget.id': event.budgetId, 'server.address': event.serverAddress },
    queueSpans: new Map(),
    attemptSpans: new Map(),
    failedWithCall: new Map(),
    waiting: 0,
    holding: 0,
    fallback: false,
    failovers: 0,
    sentPerModel: new Map(),
    usage,
  };
}

/**
 * The GenAI conventions' request attributes (Recommended) of what the request body set: none it
 * did not (the model server's defaults are not known here).
 */
function parameterAttributes(parameters: GatewayStartEvent['parameters']): Attributes {
  const attributes: Attributes = {};
  if (parameters === undefined) return attributes;
  for (const [name, attribute] of PARAMETER_ATTRIBUTES) {
    const value = parameters[name];
    if (value !== undefined) attributes[attribute] = value;
  }
  return attributes;
}

/** Each request parameter's attribute. */
const PARAMETER_ATTRIBUTES = [
  ['temperature', 'gen_ai.request.temperature'],
  ['maxTokens', 'gen_ai.request.max_tokens'],
  ['topP', 'gen_ai.request.top_p'],
  ['seed', 'gen_ai.request.seed'],
  ['stopSequences', 'gen_ai.request.stop_sequences'],
  ['frequencyPenalty', 'gen_ai.request.frequency_penalty'],
  ['presencePenalty', 'gen_ai.request.presence_penalty'],
  ['outputType', 'gen_ai.output.type'],
  ['dimensions', 'gen_ai.embeddings.dimension.count'],
] as const satisfies readonly (readonly [
  keyof NonNullable<GatewayStartEvent['parameters']>,
  string,
])[];

function record(
  tracer: Tracer,
  instruments: Instruments,
  call: CallState,
  event: Exclude<GatewayEvent, GatewayStartEvent>,
): void {
  switch (event.type) {
    case 'queued':
    case 'dequeued':
    case 'released':
      recordSlot(tracer, instruments, call, event);
      return;
    case 'attempt':
    case 'model-skipped':
    case 'model-deferred':
    case 'failover':
    case 'hedge':
    case 'circuit-open':
      recordHop(tracer, instruments, call, event);
      return;
    case 'response':
      recordResponse(instruments, call, event);
      return;
    case 'retry':
      recordRetry(instruments, call, event);
      return;
    case 'fallback':
      recordFallback(call, event);
      return;
    case 'hedge-skipped':
      recordHedgeSkipped(call, event);
      return;
    case 'entry-skipped':
      call.span.addEvent('infergate.entry_skipped', { 'infergate.entry.index': event.index });
      return;
    case 'done':
      finish(instruments, call, event);
      return;
    case 'circuit-probe':
    case 'circuit-close':
      recordCircuit(call, event);
      return;
  }
}

/** A breaker's probe let through, or a breaker closed: span events beside `circuit_open`. */
function recordCircuit(
  call: CallState,
  event: GatewayCircuitProbeEvent | GatewayCircuitCloseEvent,
): void {
  const name =
    event.type === 'circuit-probe' ? 'infergate.circuit_probe' : 'infergate.circuit_close';
  call.span.addEvent(name, { 'gen_ai.request.model': event.model });
}

/** A slot of the key's budget: waited for (its queue span), taken, given back. */
function recordSlot(
  tracer: Tracer,
  instruments: Instruments,
  call: CallState,
  event: GatewayQueuedEvent | GatewayDequeuedEvent | GatewayReleasedEvent,
): void {
  switch (event.type) {
    case 'queued':
      call.queueSpans.set(
        event.attempt,
        tracer.startSpan(
          'infergate.queue',
          { attributes: { 'infergate.attempt': event.attempt, ...call.budget } },
          call.context,
        ),
      );
      call.waiting++;
      instruments.queued.add(1, call.budget);
      return;
    case 'dequeued': {
      const queueSpan = call.queueSpans.get(event.attempt);
      call.queueSpans.delete(event.attempt);
      queueSpan?.setAttribute('infergate.queue.wait_ms', event.waitMs);
      queueSpan?.end();
      call.waiting = Math.max(0, call.waiting - 1);
      call.holding++;
      instruments.queued.add(-1, call.budget);
      instruments.slotsInUse.add(1, call.budget);
      instruments.queueWait.record(event.waitMs / 1000, {
        ...call.budget,
        'gen_ai.operation.name': event.operation,
      });
      return;
    }
    case 'released':
      if (call.holding > 0) instruments.slotsInUse.add(-1, call.budget);
      call.holding = Math.max(0, call.holding - 1);
      return;
  }
}

/** An attempt's answer: its span ended with the status (an error's type; a 429 counted). */
function recordResponse(
  instruments: Instruments,
  call: CallState,
  event: GatewayResponseEvent,
): void {
  const span = call.attemptSpans.get(event.attempt);
  call.attemptSpans.delete(event.attempt);
  if (event.status !== undefined) span?.setAttribute('http.response.status_code', event.status);
  if (event.retryAfterMs !== undefined) {
    span?.setAttribute('infergate.retry_after_ms', event.retryAfterMs);
  }
  if (!event.ok) {
    span?.setStatus({ code: SpanStatusCode.ERROR });
    // No code of its own: it failed with the call, whose `done` follows at once and names why.
    if (event.code === undefined) {
      if (span) call.failedWithCall.set(event.attempt, span);
      return;
    }
    span?.setAttribute('error.type', event.code);
    if (event.status === 429) {
      instruments.rateLimited.add(1, { 'error.type': event.code, ...call.budget });
    }
  }
  span?.end();
}

/** A retry: an event on the call's span, counted. */
function recordRetry(instruments: Instruments, call: CallState, event: GatewayRetryEvent): void {
  const attributes: Attributes = {
    'infergate.attempt': event.attempt,
    'infergate.retry.delay_ms': event.delayMs,
    'error.type': event.reason,
  };
  if (event.status !== undefined) attributes['http.response.status_code'] = event.status;
  call.span.addEvent('infergate.retry', attributes);
  instruments.retries.add(1, { 'error.type': event.reason, ...call.budget });
}

/** Another model answered than the one asked for: marked on the call's span. */
function recordFallback(call: CallState, event: GatewayFallbackEvent): void {
  call.fallback = true;
  call.span.setAttributes({
    'infergate.fallback': true,
    'gen_ai.response.model': event.servedModel,
  });
  call.span.addEvent('infergate.fallback', {
    'gen_ai.request.model': event.requestedModel,
    'gen_ai.response.model': event.servedModel,
  });
}

/** A hedge due but not sent: why, on the call's span (an attribute and an event). */
function recordHedgeSkipped(call: CallState, event: GatewayHedgeSkippedEvent): void {
  call.span.setAttribute('infergate.hedge.skipped', event.reason);
  call.span.addEvent('infergate.hedge.skipped', {
    'gen_ai.request.model': event.model,
    'infergate.hedge.skip_reason': event.reason,
    'infergate.hedge.waited_ms': event.waitedMs,
  });
}

/**
 * A hop of a call: an attempt (its span, naming the model it asked for), a skipped model, a model
 * put behind another, a failover.
 */
function recordHop(
  tracer: Tracer,
  instruments: Instruments,
  call: CallState,
  event:
    | GatewayAttemptEvent
    | GatewayModelSkippedEvent
    | GatewayModelDeferredEvent
    | GatewayFailoverEvent
    | GatewayHedgeEvent
    | GatewayCircuitOpenEvent,
): void {
  switch (event.type) {
    case 'attempt':
      call.attemptSpans.set(event.attempt, attemptSpan(tracer, call, event));
      return;
    case 'model-skipped':
      call.span.addEvent('infergate.model_skipped', {
        'gen_ai.request.model': event.model,
        'infergate.skip.reason': event.reason,
        'infergate.skip.detail': event.detail,
      });
      return;
    case 'model-deferred':
      call.span.addEvent('infergate.model_deferred', {
        'gen_ai.request.model': event.model,
        'infergate.defer.reason': event.reason,
        'infergate.defer.ahead': event.ahead,
        'infergate.defer.detail': event.detail,
      });
      return;
    case 'failover':
      recordFailover(instruments, call, event);
      return;
    case 'hedge':
      call.hedged = true;
      if (event.phase === 'won') call.hedgeWinner = event.winner;
      call.span.addEvent(`infergate.hedge.${event.phase}`, hedgeAttributes(event));
      return;
    case 'circuit-open':
      call.span.addEvent('infergate.circuit_open', {
        'gen_ai.request.model': event.model,
        'infergate.circuit.cooldown_ms': event.cooldownMs,
      });
      return;
  }
}

/** An attempt's span, naming the model it asked for. */
function attemptSpan(tracer: Tracer, call: CallState, event: GatewayAttemptEvent): Span {
  const attributes: Attributes = {
    'http.request.method': event.method,
    'url.path': event.path,
    'server.address': call.start.serverAddress,
    'server.port': call.start.serverPort,
    'infergate.attempt': event.attempt,
    'http.request.resend_count': resendCount(call, event),
  };
  // Each hop of a walk over `fallbackModels` names the model it asked for.
  if (event.model !== undefined) attributes['gen_ai.request.model'] = event.model;
  // (With recordContent: an attempt whose body is not the call's, e.g. a hop serving a schema.)
  const messages = event.input === undefined ? undefined : inputMessages(event.input);
  if (messages !== undefined) attributes['gen_ai.input.messages'] = messages;
  return tracer.startSpan(
    `${event.method} ${event.path}`,
    { kind: SpanKind.CLIENT, attributes },
    call.context,
  );
}

/**
 * The HTTP conventions' count of resends of one request: the attempts sent before this one to the
 * same model (0 for the first). A hedge or a failover asks another model — another request, not a
 * resend; a model asked again (a retry, the next round of `fallbackModels`) is one.
 */
function resendCount(call: CallState, event: GatewayAttemptEvent): number {
  const model = event.model ?? call.start.requestedModel ?? '';
  const sent = call.sentPerModel.get(model) ?? 0;
  call.sentPerModel.set(model, sent + 1);
  return sent;
}

/** A hedge event's attributes (those it has). */
function hedgeAttributes(event: GatewayHedgeEvent): Attributes {
  const attributes: Attributes = { 'gen_ai.request.model': event.model };
  if (event.from !== undefined) attributes['infergate.hedge.from'] = event.from;
  if (event.waitedMs !== undefined) attributes['infergate.hedge.waited_ms'] = event.waitedMs;
  if (event.winner !== undefined) attributes['infergate.hedge.winner'] = event.winner;
  if (event.lost !== undefined) attributes['infergate.hedge.lost'] = event.lost;
  return attributes;
}

/** How a structured call's hop served the schema, and whether its answer passed the check. */
function structuredAttributes(structured: HopStructuredOutput | undefined): Attributes {
  if (structured === undefined) return {};
  return {
    'infergate.structured_output.method': structured.method,
    'infergate.structured_output.checked': structured.checked,
  };
}

/** Ends every span of `spans` (a call that ended with them open). */
function endAll(spans: Map<number, Span>, status?: SpanStatusCode): void {
  for (const span of spans.values()) {
    if (status !== undefined) span.setStatus({ code: status });
    span.end();
  }
  spans.clear();
}

function finish(instruments: Instruments, call: CallState, event: GatewayDoneEvent): void {
  const { span } = call;
  // A call that ended while queued or mid-attempt (deadline, abort) closes those spans too.
  endAll(call.queueSpans, SpanStatusCode.ERROR);
  // An attempt still open (a hedge's cut attempt past its grace): ended as the abort it was.
  for (const attempt of call.attemptSpans.values()) attempt.setAttribute('error.type', 'aborted');
  endAll(call.attemptSpans, SpanStatusCode.ERROR);
  // An attempt that failed with the call (an abandoned stream's): the call's error is its own.
  const failure = event.error?.code ?? 'unknown';
  for (const attempt of call.failedWithCall.values()) attempt.setAttribute('error.type', failure);
  endAll(call.failedWithCall);
  giveBack(instruments, call);
  const attributes: Attributes = {
    'infergate.attempts': event.attempts,
    'infergate.queue.wait_ms': event.queueWaitMs,
    'infergate.fallback': call.fallback,
  };
  if (call.failovers > 0) attributes['infergate.failovers'] = call.failovers;
  if (call.hedged) attributes['infergate.hedged'] = true;
  if (call.hedgeWinner !== undefined) attributes['infergate.hedge.winner'] = call.hedgeWinner;
  Object.assign(attributes, structuredAttributes(event.structured));
  if (event.servedModel !== undefined) attributes['gen_ai.response.model'] = event.servedModel;
  if (event.responseId !== undefined) attributes['gen_ai.response.id'] = event.responseId;
  if (event.finishReason !== undefined) {
    attributes['gen_ai.response.finish_reasons'] = [event.finishReason];
  }
  Object.assign(attributes, usageAttributes(event.usage, call.usage));
  if (event.output !== undefined) {
    const messages = outputMessages(event.output);
    if (messages !== undefined) attributes['gen_ai.output.messages'] = messages;
  }
  // A stream dropped unread and collected (its `done` comes from the finalizer).
  if (event.error?.code === 'abandoned') attributes['infergate.abandoned'] = true;
  if (event.error) {
    attributes['error.type'] = event.error.code;
    span.setStatus({ code: SpanStatusCode.ERROR, message: event.error.code });
  }
  span.setAttributes(attributes);
  span.end();
  recordMetrics(instruments, call, event);
}

/** A call's duration and token counts. */
function recordMetrics(instruments: Instruments, call: CallState, event: GatewayDoneEvent): void {
  const metricAttributes = modelAttributes(call, event.servedModel);
  if (event.error) metricAttributes['error.type'] = event.error.code;
  instruments.duration.record(event.durationMs / 1000, metricAttributes);
  recordTokens(instruments, event.usage, metricAttributes);
}

/**
 * A move to the next model: a span event, counted; the tokens of the answer it refused (a
 * structured check's) are counted too — they were spent, though the call's usage is its answer's.
 */
function recordFailover(instruments: Instruments, call: CallState, event: GatewayFailoverEvent) {
  call.failovers++;
  const attributes: Attributes = {
    'infergate.failover.from': event.from,
    'infergate.failover.to': event.to,
    'error.type': event.reason,
    'infergate.failover.waited_ms': event.waitedMs,
    ...structuredAttributes(event.structured),
    ...usageAttributes(event.usage, call.usage),
  };
  if (event.heldMs !== undefined) attributes['infergate.failover.held_ms'] = event.heldMs;
  call.span.addEvent('infergate.failover', attributes);
  instruments.failovers.add(1, { 'error.type': event.reason, ...call.budget });
  const metricAttributes = modelAttributes(call, event.from);
  metricAttributes['error.type'] = event.reason;
  recordTokens(instruments, event.usage, metricAttributes);
}

/** The GenAI metrics' attributes of a call answered (or refused) by `responseModel`. */
function modelAttributes(call: CallState, responseModel: string | undefined): Attributes {
  const attributes: Attributes = {
    'gen_ai.operation.name': call.start.operation,
    'gen_ai.provider.name': 'infergate',
    'server.address': call.start.serverAddress,
    'server.port': call.start.serverPort,
  };
  const requested = call.start.requestedModel;
  if (requested !== undefined) attributes['gen_ai.request.model'] = requested;
  if (responseModel !== undefined) attributes['gen_ai.response.model'] = responseModel;
  return attributes;
}

/** `gen_ai.usage.*` (or `infergate.usage.*`): an answer's input and output tokens, when reported. */
function usageAttributes(usage: UsageCounts | undefined, prefix: UsagePrefix): Attributes {
  const attributes: Attributes = {};
  if (usage?.inputTokens !== undefined) attributes[`${prefix}.input_tokens`] = usage.inputTokens;
  if (usage?.outputTokens !== undefined) attributes[`${prefix}.output_tokens`] = usage.outputTokens;
  return attributes;
}

/** `gen_ai.client.token.usage`: an answer's input and output tokens, when it reported them. */
function recordTokens(
  instruments: Instruments,
  usage: UsageCounts | undefined,
  attributes: Attributes,
): void {
  if (usage?.inputTokens !== undefined) {
    instruments.tokens.record(usage.inputTokens, { ...attributes, 'gen_ai.token.type': 'input' });
  }
  if (usage?.outputTokens !== undefined) {
    instruments.tokens.record(usage.outputTokens, { ...attributes, 'gen_ai.token.type': 'output' });
  }
}
