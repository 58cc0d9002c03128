import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import type { ScenarioInput } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type DataPoint, type Histogram, MeterProvider } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import { type GatewayEvent, isGatewayError } from '../src/index';
import { otelEvents } from '../src/otel';
import { askingPlace, clientOn, DEFAULT_KEYS, driveClock, hi, settledAfter } from './helpers';
import {
  chatHedgedPastStall,
  clientUntilChatDone,
  otelRecorder,
  pointsOf,
  TestReader,
} from './otel-recorder';

const contextManager = new AsyncLocalStorageContextManager();
const { provider: tracerProvider, tracer, spans, reset: forgetSpans } = otelRecorder();
let reader: TestReader;
let meterProvider: MeterProvider;

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});
beforeEach(() => {
  forgetSpans();
  reader = new TestReader();
  meterProvider = new MeterProvider({ readers: [reader] });
});

/** A client on its own emulator whose events go to the test's tracer and meter. */
async function traced(options: GatewayClientOptions = {}, scenario?: ScenarioInput) {
  const gateway = await emulate({ scenario });
  const client = clientOn(gateway, {
    onEvent: otelEvents({ tracer, meter: meterProvider.getMeter('test') }),
    ...options,
  });
  return { client, emulator: gateway.emulator };
}

const named = (name: string) => spans().filter((span) => span.name === name);
const callSpan = (name = 'chat community/general'): ReadableSpan => {
  const found = named(name);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const childrenOf = (parent: ReadableSpan) =>
  spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);

async function metricPoints(name: string): Promise<DataPoint<unknown>[]> {
  const { resourceMetrics } = await reader.collect();
  return pointsOf(resourceMetrics, name);
}

describe('otelEvents: spans', () => {
  it('a chat call is a CLIENT span with the GenAI attributes and usage', async () => {
    const { client } = await traced();
    // (The catalog read first: the call's children are then its own queue and attempt only.)
    await client.models();
    await client.chat(hi());
    const span = callSpan();
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'infergate',
      'gen_ai.request.model': 'community/general',
      'gen_ai.response.model': 'community/general',
      'server.port': 443,
      'infergate.fallback': false,
      'infergate.attempts': 1,
    });
    expect(span.attributes['server.address']).toMatch(/^gateway-\d+\.test$/);
    expect(span.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(span.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(span.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(span.attributes['gen_ai.response.id']).toBeTypeOf('string');
    expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    const children = childrenOf(span).map((child) => child.name);
    expect(children).toEqual(['infergate.queue', 'POST /chat/completions']);
    const attempt = named('POST /chat/completions')[0]!;
    expect(attempt.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 200,
      'infergate.attempt': 1,
      'http.request.resend_count': 0,
    });
  });

  it("the catalog read a chat call needs is a child span of the call's span, plain or steered", async () => {
    const { client } = await traced();
    await client.chat(hi());
    const span = callSpan();
    expect(childrenOf(span).map((child) => child.name)).toEqual([
      'models',
      'infergate.queue',
      'POST /chat/completions',
    ]);
    const [read] = childrenOf(span).filter((child) => child.name === 'models');
    expect(read?.spanContext().traceId).toBe(span.spanContext().traceId);
    expect(childrenOf(read!).map((child) => child.name)).toContain('GET /models');
    // A steered call plans on the catalog: a read it triggers (here the ids it must look up again
    // are missing from the cached list) is its child too.
    forgetSpans();
    client.refreshCatalog();
    await client.chat(hi('community/plain'), { fallbackModels: ['community/general'] });
    const steered = callSpan('chat community/plain');
    expect(childrenOf(steered).map((child) => child.name)[0]).toBe('models');
    expect(named('models')).toHaveLength(1);
  });

  it('a fallback sets gen_ai.response.model to the served model and infergate.fallback', async () => {
    const { client } = await traced();
    const result = await client.chat(hi('my/laptop-model'));
    const span = callSpan('chat my/laptop-model');
    expect(span.attributes['gen_ai.request.model']).toBe('my/laptop-model');
    expect(span.attributes['gen_ai.response.model']).toBe(result.servedModel);
    expect(span.attributes['infergate.fallback']).toBe(true);
    expect(span.events.map((event) => event.name)).toContain('infergate.fallback');
  });

  it('a 429 is an attempt span with its Retry-After, a retry event and a second attempt', async () => {
    const { client, emulator } = await traced();
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', times: 1, retryAfter: 0 });
    await client.chat(hi());
    const span = callSpan();
    const attempts = childrenOf(span).filter((child) => child.name === 'POST /chat/completions');
    expect(attempts.map((attempt) => attempt.attributes['http.response.status_code'])).toEqual([
      429, 200,
    ]);
    expect(attempts[0]?.attributes).toMatchObject({
      'error.type': 'client_concurrency_exceeded',
      'infergate.retry_after_ms': 0,
    });
    expect(attempts[0]?.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempts[1]?.attributes['http.request.resend_count']).toBe(1);
    const retry = span.events.find((event) => event.name === 'infergate.retry');
    expect(retry?.attributes).toMatchObject({
      'error.type': 'client_concurrency_exceeded',
      'http.response.status_code': 429,
    });
    expect(span.attributes['infergate.attempts']).toBe(2);
    expect(childrenOf(span).filter((child) => child.name === 'infergate.queue')).toHaveLength(2);
  });

  it('says why a hedge was not sent: infergate.hedge.skipped on the call span, once', async () => {
    const { client, emulator } = await traced({ maxConcurrency: 1 });
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/general', ms: 60_000 });
    const error = await caught(
      () => client.chat(hi(), { hedge: { afterMs: 30, maxExtra: 1 }, timeoutMs: 400 }),
      isGatewayError,
    );
    expect(error.code).toBe('timeout');
    const span = callSpan();
    expect(span.attributes['infergate.hedge.skipped']).toBe('no_free_slot');
    const skipped = span.events.filter((event) => event.name === 'infergate.hedge.skipped');
    expect(skipped.map((event) => event.attributes)).toEqual([
      {
        'gen_ai.request.model': 'community/general',
        'infergate.hedge.skip_reason': 'no_free_slot',
        // Measured on the slow attempt (rv-steer7 F3): the delay or a little more, on real timers.
        'infergate.hedge.waited_ms': expect.any(Number),
      },
    ]);
    expect(skipped[0]?.attributes?.['infergate.hedge.waited_ms']).toBeGreaterThanOrEqual(29); // (a timer may fire a fraction of a ms early)
  });

  it("a hedged call's cut attempt: its span ends with its abort (error.type), before the call's", async () => {
    const gateway = await emulate();
    const record = otelEvents({ tracer, meter: meterProvider.getMeter('test') });
    const { client, done } = clientUntilChatDone(gateway, record);
    await chatHedgedPastStall(gateway, client);
    await done;
    const call = callSpan();
    const attempts = childrenOf(call).filter((span) => span.name === 'POST /chat/completions');
    const cut = attempts.find((span) => span.attributes['infergate.attempt'] === 1);
    expect(cut?.attributes['error.type']).toBe('aborted');
    expect(cut?.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes['infergate.hedge.winner']).toBe('hedge');
  });

  it("a hedged call's cut attempt that never ends: its span ends, aborted, with the call's after the grace", async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    // The first request's fetch ignores its abort and never settles (a wrapper queueing requests).
    let chats = 0;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.endsWith('/chat/completions') || ++chats > 1) return emulator.fetch(input, init);
      return new Promise<Response>(() => {});
    };
    const record = otelEvents({ tracer, meter: meterProvider.getMeter('test') });
    let ended: () => void = () => {};
    const done = new Promise<void>((resolve) => (ended = resolve));
    const client = clientOn(gateway, {
      fetch,
      onEvent: (event) => {
        record(event);
        if (event.type === 'done' && event.operation === 'chat') ended();
      },
    });
    driveClock();
    try {
      const options = { fallbackModels: ['community/plain'], hedge: { afterMs: 30, maxExtra: 1 } };
      await settledAfter(30, client.chat(hi(), options));
      await settledAfter(CUT_REQUEST_GRACE_MS, done);
    } finally {
      vi.useRealTimers();
    }
    const call = callSpan();
    const attempts = childrenOf(call).filter((span) => span.name === 'POST /chat/completions');
    const cut = attempts.find((span) => span.attributes['infergate.attempt'] === 1);
    expect(cut?.attributes['error.type']).toBe('aborted');
    expect(cut?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('shows each hop of a walk over fallbackModels: skips, one attempt span per model, failovers', async () => {
    const { client, emulator } = await traced();
    emulator.injectFault({ fault: 'model_busy', model: 'community/general', retryAfter: 3600 });
    await client.chat(
      {
        ...hi(),
        tools: [
          { type: 'function', function: { name: 'weather', parameters: { type: 'object' } } },
        ],
      },
      { fallbackModels: ['community/streamer', 'community/tools'] },
    );
    const span = callSpan();
    const attempts = childrenOf(span).filter((child) => child.name === 'POST /chat/completions');
    expect(attempts.map((attempt) => attempt.attributes['gen_ai.request.model'])).toEqual([
      'community/general',
      'community/tools',
    ]);
    expect(attempts[0]?.attributes['error.type']).toBe('model_busy');
    const skipped = span.events.find((event) => event.name === 'infergate.model_skipped');
    expect(skipped?.attributes).toMatchObject({
      'gen_ai.request.model': 'community/streamer',
      'infergate.skip.reason': 'missing_capability',
    });
    const failover = span.events.find((event) => event.name === 'infergate.failover');
    expect(failover?.attributes).toMatchObject({
      'infergate.failover.from': 'community/general',
      'infergate.failover.to': 'community/tools',
      'error.type': 'model_busy',
    });
    expect(failover?.attributes?.['infergate.failover.waited_ms']).toBeTypeOf('number');
    expect(span.attributes).toMatchObject({
      'infergate.failovers': 1,
      'gen_ai.response.model': 'community/tools',
    });
    const [failovers] = await metricPoints('infergate.client.failovers');
    expect(failovers?.value).toBe(1);
    expect(failovers?.attributes['error.type']).toBe('model_busy');
  });

  it('a failed call sets error.type to the gateway code and an error status', async () => {
    const { client, emulator } = await traced({ maxRetries: 0 });
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat' });
    const error = await caught(() => client.chat(hi()), isGatewayError);
    const span = callSpan();
    expect(span.attributes['error.type']).toBe(error.code);
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a stream span ends when the stream does, with its usage', async () => {
    const { client } = await traced();
    const stream = await client.chatStream(hi());
    expect(named('chat community/general')).toHaveLength(0);
    await stream.result();
    const span = callSpan();
    expect(span.attributes['infergate.stream']).toBe(true);
    expect(span.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
  });

  it('is a child of the span active when the call began', async () => {
    const { client } = await traced();
    await tracer.startActiveSpan('app.handler', async (parent) => {
      await client.chat(hi());
      parent.end();
    });
    const parent = named('app.handler')[0]!;
    const span = callSpan();
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
  });

  it('names embeddings spans by the GenAI operation', async () => {
    const { client } = await traced();
    await client.embed({ input: 'hello', model: 'all-minilm-l6-v2' });
    const span = callSpan('embeddings all-minilm-l6-v2');
    expect(span.attributes['gen_ai.operation.name']).toBe('embeddings');
    expect(span.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
  });
});

describe('otelEvents: content and secrets', () => {
  const message = 'a private message, not for traces';

  it('exports neither the API key nor message content by default', async () => {
    const { client, emulator } = await traced();
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', times: 1, retryAfter: 0 });
    await client.chat(hi('community/general', message));
    await (await client.chatStream(hi('my/laptop-model', message))).result();
    await caught(() => client.chat(hi('no/such-model', message)), isGatewayError);
    const exported = JSON.stringify(
      spans().map((span) => ({
        name: span.name,
        attributes: span.attributes,
        events: span.events,
        status: span.status,
        resource: span.resource.attributes,
      })),
    );
    expect(spans().length).toBeGreaterThan(6);
    expect(exported).not.toContain(DEFAULT_KEYS.full);
    expect(exported).not.toContain(message);
    expect(exported).not.toContain('gen_ai.input.messages');
    const { resourceMetrics } = await reader.collect();
    expect(JSON.stringify(resourceMetrics.scopeMetrics)).not.toContain(DEFAULT_KEYS.full);
  });

  it('records messages with recordContent: true (and still not the key)', async () => {
    const { client } = await traced({ recordContent: true });
    await client.chat(hi('community/general', message));
    await (await client.chatStream(hi('community/general', message))).result();
    for (const span of named('chat community/general')) {
      const input = JSON.parse(String(span.attributes['gen_ai.input.messages']));
      expect(input).toEqual([{ role: 'user', parts: [{ type: 'text', content: message }] }]);
      const output = JSON.parse(String(span.attributes['gen_ai.output.messages']));
      expect(output[0]).toMatchObject({
        role: 'assistant',
        parts: [{ type: 'text', content: `Echo: ${message}` }],
        finish_reason: 'stop',
      });
    }
    expect(named('chat community/general')).toHaveLength(2);
    expect(JSON.stringify(spans().map((span) => span.attributes))).not.toContain(DEFAULT_KEYS.full);
  });
});

describe('otelEvents: an answer that fails before it began', () => {
  it.each([
    ['a 200 whose body is not JSON', false, 'truncated_json'],
    ['a stream whose error event comes before its content', true, 'stream_error; afterChunks=1'],
  ])('%s: its attempt span is an error (no fallbackModels)', async (_, stream, fault) => {
    const { client } = await traced({ maxRetries: 0 });
    await client.models();
    const headers = { 'x-emulator-fault': fault };
    const call = async () => {
      if (stream) await (await client.chatStream(hi(), { headers })).result();
      else await client.chat(hi(), { headers });
    };
    const error = await caught(call, isGatewayError);
    const [attempt] = named('POST /chat/completions');
    expect(attempt?.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempt?.attributes).toMatchObject({
      'error.type': error.code,
      'http.response.status_code': 200,
    });
  });
});

describe('otelEvents: tokens of a refused structured answer', () => {
  const listed = { owned_by: 'service-community', online: true } as const;
  const models = {
    // (Claims the schema, answers off it: the check refuses its answer, whose tokens were spent.)
    'community/so-claimed': {
      ...listed,
      capabilities: ['chat', 'streaming', 'json_schema', 'tools'],
      verification: 'provider_claimed',
      jsonAnswers: { offSchemaShare: 1 },
    },
    'community/so-tools': { ...listed, capabilities: ['chat', 'streaming', 'tools'] },
  } satisfies ScenarioInput['models'];
  const asking = askingPlace;

  it('are on the failover event and span event, and counted by the token metric', async () => {
    const events: GatewayEvent[] = [];
    const record = otelEvents({ tracer, meter: meterProvider.getMeter('test') });
    const onEvent = (event: GatewayEvent) => {
      events.push(event);
      record(event);
    };
    const { client } = await traced({ onEvent }, { models });
    const result = await client.chat(asking('community/so-claimed'), {
      fallbackModels: ['community/so-tools'],
    });
    const refused = result.route.hops[0];
    const spent = refused && 'usage' in refused ? refused.usage : undefined;
    expect(spent?.prompt_tokens).toBeGreaterThan(0);
    const failover = events.find((event) => event.type === 'failover');
    expect(failover).toMatchObject({
      usage: { inputTokens: spent?.prompt_tokens, outputTokens: spent?.completion_tokens },
    });
    // `done.usage` stays the answer's (the result's).
    const done = events.find((event) => event.type === 'done' && event.operation === 'chat');
    expect(done).toMatchObject({ usage: { inputTokens: result.answer.usage?.prompt_tokens } });
    const spanEvent = callSpan('chat community/so-claimed').events.find(
      (event) => event.name === 'infergate.failover',
    );
    expect(spanEvent?.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': spent?.prompt_tokens,
      'gen_ai.usage.output_tokens': spent?.completion_tokens,
    });
    const input = (await metricPoints('gen_ai.client.token.usage')).filter(
      (point) => point.attributes['gen_ai.token.type'] === 'input',
    );
    const counted = input.reduce((sum, point) => sum + ((point.value as Histogram).sum ?? 0), 0);
    expect(counted).toBe((spent?.prompt_tokens ?? 0) + (result.answer.usage?.prompt_tokens ?? 0));
    expect(
      input.find((point) => point.attributes['gen_ai.response.model'] === 'community/so-claimed')
        ?.attributes,
    ).toMatchObject({ 'error.type': 'invalid_structured_output' });
  });

  it("a refused answer that ended the call: its usage is the done event's", async () => {
    const events: GatewayEvent[] = [];
    const { client } = await traced({ onEvent: (event) => events.push(event) }, { models });
    const error = await caught(() => client.chat(asking('community/so-claimed')), isGatewayError);
    expect(error.code).toBe('invalid_structured_output');
    const done = events.find((event) => event.type === 'done' && event.operation === 'chat');
    expect(done).toMatchObject({ ok: false, usage: { inputTokens: error.usage?.prompt_tokens } });
  });
});

describe('otelEvents: reasoning', () => {
  it("records the answer's reasoning as a reasoning part of gen_ai.output.messages", async () => {
    const { client } = await traced({ recordContent: true });
    const asked = hi('community/reasoner', 'Why is the sky blue?');
    const whole = await client.chat(asked);
    const streamed = await (await client.chatStream(asked)).result();
    expect(streamed.reasoning).not.toBe('');
    const reasonings = [whole.answer.reasoning, streamed.reasoning];
    const calls = named('chat community/reasoner');
    expect(calls).toHaveLength(2);
    calls.forEach((span, index) => {
      const [output] = JSON.parse(String(span.attributes['gen_ai.output.messages']));
      expect(output.parts[0]).toEqual({ type: 'reasoning', content: reasonings[index] });
      expect(output.parts[1]).toMatchObject({ type: 'text' });
    });
  });
});

describe('otelEvents: metrics', () => {
  it('records call duration, tokens, queue wait, retries and 429s by code', async () => {
    const { client, emulator } = await traced();
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', times: 1, retryAfter: 0 });
    // (Its capabilities given: no catalog read, whose metrics would mix with the call's.)
    await client.chat(hi(), { capabilities: ['chat'] });
    const [duration] = await metricPoints('gen_ai.client.operation.duration');
    expect(duration?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'community/general',
      'gen_ai.response.model': 'community/general',
    });
    expect((duration?.value as Histogram | undefined)?.count).toBe(1);
    const tokens = await metricPoints('gen_ai.client.token.usage');
    expect(tokens.map((point) => point.attributes['gen_ai.token.type']).sort()).toEqual([
      'input',
      'output',
    ]);
    const [wait] = await metricPoints('infergate.client.queue.wait');
    expect((wait?.value as Histogram | undefined)?.count).toBe(2);
    const [retries] = await metricPoints('infergate.client.retries');
    expect(retries?.value).toBe(1);
    expect(retries?.attributes['error.type']).toBe('client_concurrency_exceeded');
    const [limited] = await metricPoints('infergate.client.rate_limited');
    expect(limited?.value).toBe(1);
    expect(limited?.attributes['error.type']).toBe('client_concurrency_exceeded');
  });

  it('counts slots in use and calls queued per budget, back to 0 when calls end', async () => {
    // The first request is held at fetch: it keeps the only slot while the second call waits.
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    let held = true;
    const setup = await traced({
      maxConcurrency: 1,
      fetch: async (input, init) => {
        if (held) {
          held = false;
          await opened;
        }
        return setup.emulator.fetch(input, init);
      },
    });
    const { client } = setup;
    // (Their capabilities given: no catalog read, so the first request held is the first call's.)
    const first = client.chat(hi(), { capabilities: ['chat'] });
    const second = client.chat(hi(), { capabilities: ['chat'] });
    // Once the second call waits for the first's slot (the budget's state, not a turn of the loop).
    await vi.waitFor(() => expect(client.budget.queued).toBe(1), { timeout: 30_000 });
    const inUse = await metricPoints('infergate.client.slots.in_use');
    const queued = await metricPoints('infergate.client.calls.queued');
    expect(inUse[0]?.value).toBe(1);
    expect(queued[0]?.value).toBe(1);
    expect(inUse[0]?.attributes['infergate.budget.id']).toMatch(/^ig-/);
    open();
    await Promise.all([first, second]);
    expect((await metricPoints('infergate.client.slots.in_use'))[0]?.value).toBe(0);
    expect((await metricPoints('infergate.client.calls.queued'))[0]?.value).toBe(0);
  });
});

describe('otelEvents: calls that never end', () => {
  const start = (handler: (event: GatewayEvent) => void, callId: number) =>
    handler({
      type: 'start',
      callId,
      operation: 'chat',
      time: Date.now(),
      method: 'POST',
      path: '/chat/completions',
      serverAddress: 'gw.test',
      serverPort: 443,
      stream: true,
      budgetId: 'ig-test',
    });

  it('without FinalizationRegistry, past 10 000 open calls the oldest is ended as abandoned', () => {
    vi.stubGlobal('FinalizationRegistry', undefined);
    try {
      const handler = otelEvents({ tracer, meter: meterProvider.getMeter('test') });
      for (let id = 1; id <= 10_000; id++) start(handler, -id);
      expect(spans()).toHaveLength(0);
      start(handler, -10_001);
      expect(spans()).toHaveLength(1);
      expect(spans()[0]?.attributes['infergate.abandoned']).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('with FinalizationRegistry (every call sends its done), no open call is forgotten', () => {
    const handler = otelEvents({ tracer, meter: meterProvider.getMeter('test') });
    for (let id = 1; id <= 10_001; id++) start(handler, -id);
    expect(spans()).toHaveLength(0);
  });
});

describe('disabled path', () => {
  it('a client without onEvent makes no spans, even with a tracer provider registered', async () => {
    trace.setGlobalTracerProvider(tracerProvider);
    try {
      const gateway = await emulate();
      const client = clientOn(gateway);
      await tracer.startActiveSpan('app.handler', async (parent) => {
        await client.chat(hi());
        parent.end();
      });
      expect(spans().map((span) => span.name)).toEqual(['app.handler']);
    } finally {
      trace.disable();
    }
  });

  it("core's main entry never imports @opentelemetry/api (it loads without it)", () => {
    const seen = new Set<string>();
    // `file`: a path under src/ without `.ts`; relative imports resolve against its folder.
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(new URL(`../src/${file}.ts`, import.meta.url), 'utf8');
      expect(source, file).not.toMatch(/from '@opentelemetry|import\('@opentelemetry/);
      for (const [, next] of source.matchAll(/(?:from |import\()'(\.{1,2}\/[\w./-]+)'/g)) {
        visit(posix.join(posix.dirname(file), next!));
      }
    };
    visit('index');
    expect(seen.has('client/client')).toBe(true);
    expect(seen.has('otel/otel-events')).toBe(false);
  });
});

describe('otelEvents: its options', () => {
  it.each([
    [
      { tracerProvider: {} },
      "unknown option `tracerProvider` in otelEvents — give its tracer: `tracer: tracerProvider.getTracer('@infergate/core')`",
    ],
    [
      { meterProvider: {} },
      "unknown option `meterProvider` in otelEvents — give its meter: `meter: meterProvider.getMeter('@infergate/core')`",
    ],
    [{ traceer: {} }, 'unknown option `traceer` in otelEvents — did you mean `tracer`?'],
  ])('%j is refused, naming what to give', async (options, message) => {
    const error = await caught(() => otelEvents(options as never), isGatewayError);
    expect(error.code).toBe('configuration_error');
    expect(error.message).toBe(message);
    // (Its options are the object the caller wrote, no group inside another's: the key is its path.)
    expect(error.field).toBe(Object.keys(options)[0]);
  });

  it('takes its own keys, undefined ones too', () => {
    expect(typeof otelEvents({ tracer: undefined, meter: undefined })).toBe('function');
  });
});
