// fallbackModels and the stall timeouts through generateText / streamText of ai@7 (main entry) and
// ai@6 (`/v6`), against the emulator: core walks the list (its walk is checked in core's tests,
// its outcomes in the kit's CORE_OUTCOMES); here the provider passes the options and maps the
// outcome (response.modelId, providerMetadata.infergate, errors carrying core's code).

import { DEFAULT_KEYS, type FaultRule } from '@infergate/emulator';
import {
  type CoreOutcome,
  coreOutcomesOf,
  drivenClock,
  emulate,
  type GatewayConnection,
} from '@infergate/emulator/testing';
import * as ai7 from 'ai';
import * as ai6 from 'ai-v6';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GatewayChatModelSettings, GatewayChatOptions, GatewayProviderSettings } from '../src';
import { BASE_URL, providersOn } from './providers';
import { WEATHER_TOOL } from './weather-tool';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway, gatewayV3 } = providersOn(emulated);

// A stall limit, a hedge's delay: a test whose subject is one drives the clock (after a first call
// with both, on real timers: core's steering loaded before a test fakes them).
// (With `onEvent` too: the call events' module is loaded on first use as well.)
const { drive: driveClock, settledOnSteps, stepUntil } = drivenClock(vi);
beforeAll(async () => {
  const model = gateway({ onEvent: () => {} })('community/general', {
    fallbackModels: ['community/streamer'],
    firstChunkTimeoutMs: 60_000,
    chunkTimeoutMs: 60_000,
    hedge: { afterMs: 30_000 },
  });
  await ai7.generateText({ model, prompt: 'hi' });
  await ai7.streamText({ model, prompt: 'hi' }).text;
});
afterEach(() => {
  vi.useRealTimers();
});

// A test shrinks the model's capacity: undone after each.
const generalCapacity = emulator.scenario.models['community/general']?.capacity;
afterEach(() => {
  const general = emulator.scenario.models['community/general'];
  if (general !== undefined) general.capacity = generalCapacity;
});

/** One chat call of a test, made through either major's entry points. */
interface Call {
  model: string;
  settings?: GatewayChatModelSettings;
  provider?: GatewayProviderSettings;
  prompt?: string;
  tools?: boolean;
  infergate?: GatewayChatOptions;
  abortSignal?: AbortSignal;
}

/** What a test reads back: the answer, the answering model, our metadata, a stream's error. */
interface Outcome {
  text: string;
  modelId: string;
  finishReason: string;
  metadata: Record<string, unknown> | undefined;
  error?: unknown;
}

interface Major {
  name: string;
  generate(call: Call): Promise<Outcome>;
  stream(call: Call): Promise<Outcome>;
}

const prompt = (call: Call) => call.prompt ?? 'hello there';
const options = (call: Call) =>
  call.infergate !== undefined ? { infergate: call.infergate } : undefined;

/**
 * The functions of `ai` these tests call: ai@6's take the same arguments as ai@7's here, so one
 * body, typed by ai@7's declarations, runs on both majors (as in registries-and-wrappers.test.ts).
 */
type AiModule = Pick<typeof ai7, 'generateText' | 'streamText' | 'tool'>;
type ProviderOf = (
  settings?: GatewayProviderSettings,
) => (model: string, settings?: GatewayChatModelSettings) => ai7.LanguageModel;

/** A major's entry points: its `ai` functions over the provider of its entry. */
function major(name: string, ai: AiModule, provider: ProviderOf): Major {
  const request = (call: Call) => ({
    // Breakers off: each test's faults would open them for the next (the realm keeps them).
    model: provider({ circuitBreaker: false, ...call.provider })(call.model, call.settings),
    prompt: prompt(call),
    tools: call.tools ? { weather: ai.tool(WEATHER_TOOL) } : undefined,
    providerOptions: options(call),
    abortSignal: call.abortSignal,
    maxRetries: 0,
  });
  return {
    name,
    async generate(call) {
      const result = await ai.generateText(request(call));
      return {
        text: result.text,
        modelId: result.response.modelId,
        finishReason: result.finishReason,
        metadata: result.providerMetadata?.infergate,
      };
    },
    async stream(call) {
      let error: unknown;
      const result = ai.streamText({
        ...request(call),
        onError: (event) => {
          error = event.error;
        },
      });
      await result.consumeStream();
      // A failure before the first byte leaves no response: the call fails with its error.
      const response = await Promise.resolve(result.response).catch((noOutput: unknown) => {
        throw error ?? noOutput;
      });
      return {
        text: await Promise.resolve(result.text).catch(() => ''),
        modelId: response.modelId,
        finishReason: await result.finishReason,
        metadata: (await result.providerMetadata)?.infergate,
        error,
      };
    },
  };
}

const AI7 = major('ai@7', ai7, gateway);
const AI6 = major('ai@6', ai6 as unknown as AiModule, gatewayV3);

/**
 * A fresh gateway for a test whose subject is a stall limit or a hedge's delay, `faults` injected,
 * the clock driven from now on. (Served by its own `fetch`: msw's interception is left to the
 * tests on real timers.)
 */
async function drivenGateway(...faults: FaultRule[]) {
  const fresh = await emulate();
  for (const fault of faults) fresh.emulator.injectFault(fault);
  driveClock();
  return fresh;
}

/** The key's requests in flight at the emulator now. */
const inflight = () => emulator.counters.inflight[DEFAULT_KEYS.full] ?? 0;

/**
 * Resolves once the emulator holds none of the key's requests: a cut request's close reaches it a
 * few ticks after the call ends (10 s for a loaded machine; the stalls under test hold for 60 s).
 */
const requestsClosed = () => emulated.untilIdle({ key: DEFAULT_KEYS.full });

/**
 * `row` of the kit's table through one entry point, on a fresh gateway (its own catalog, breakers
 * and hedge budget): the outcome, or the error the call failed with or its stream reported.
 */
async function runRow(entry: (call: Call) => Promise<Outcome>, row: CoreOutcome) {
  const fresh = await emulate();
  for (const fault of row.faults) fresh.emulator.injectFault(fault);
  const call: Call = {
    model: row.model,
    provider: { ...fresh.connection, circuitBreaker: row.circuitBreaker ?? false },
    infergate: row.steering,
    tools: row.tools,
    prompt: row.tools ? 'Use weather for "Lviv"' : undefined,
  };
  for (let i = 0; i < (row.callsBefore ?? 0); i++) await entry(call).catch(() => undefined);
  // A stall limit or a hedge's delay is passed on the driven clock, moved until the call settles.
  const { firstChunkTimeoutMs, chunkTimeoutMs, hedge } = row.steering;
  const timed = [firstChunkTimeoutMs, chunkTimeoutMs, hedge].some((limit) => limit !== undefined);
  if (timed) driveClock();
  const settled = timed ? settledOnSteps(entry(call)) : entry(call);
  const result = await settled.then(
    (outcome) => ({ outcome, error: outcome.error }),
    (error: unknown) => ({ outcome: undefined, error }),
  );
  // What the walk cut is closed at the gateway: no slot is left held.
  await fresh.untilIdle({ key: fresh.apiKey });
  return result;
}

describe.each([AI7, AI6])('fallbackModels through $name', (major) => {
  describe.each(['generate', 'stream'] as const)('%sText', (kind) => {
    const call = (c: Call) => major[kind](c);

    it("the call's providerOptions list wins over the model's", async () => {
      emulator.injectFault({ fault: 'model_busy', model: 'community/general', retryAfter: 3600 });
      const outcome = await call({
        model: 'community/general',
        settings: { fallbackModels: ['community/streamer'] },
        infergate: { fallbackModels: ['community/json-object'] },
      });
      expect(outcome.modelId).toBe('community/json-object');
      expect(outcome.metadata?.route).toMatchObject({
        requested: ['community/general', 'community/json-object'],
      });
    });

    it('a first model put behind the next one (an unlisted own model) is a deferred hop of the route (rv-steer F5)', async () => {
      const outcome = await call({
        model: 'my/laptop-model',
        infergate: { fallbackModels: ['community/general'] },
      });
      expect(outcome.modelId).toBe('community/general');
      expect(outcome.metadata?.route).toEqual({
        requested: ['my/laptop-model', 'community/general'],
        hops: [
          { model: 'my/laptop-model', outcome: 'deferred', reason: 'not_in_catalog' },
          { model: 'community/general', outcome: 'answered' },
        ],
        answeredBy: 'community/general',
      });
    });
  });

  it.each(['generate', 'stream'] as const)(
    '%sText: an abort during failover stops the walk and frees every slot',
    async (kind) => {
      const controller = new AbortController();
      emulator.injectFault({ fault: 'model_busy', model: 'community/general', retryAfter: 3600 });
      emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/streamer', ms: 60_000 });
      const outcome = major[kind]({
        model: 'community/general',
        settings: { fallbackModels: ['community/streamer', 'community/json-object'] },
        abortSignal: controller.signal,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      // The second model holds the request, silent: abort while the walk waits on it.
      await emulated.until((counters) => counters.requests.chat === 2 && inflight() === 1);
      expect(emulator.counters.requests.chat).toBe(2);
      controller.abort();
      const error = await outcome;
      expect((error as Error).name).toBe('AbortError');
      // The third model was never asked, and the stalled request was given up at once.
      expect(emulator.counters.requests.chat).toBe(2);
      await requestsClosed();
    },
  );
});

describe.each([AI7, AI6])("core's outcomes (the kit's CORE_OUTCOMES) through $name", (major) => {
  describe.each(['generate', 'stream'] as const)('%sText', (kind) => {
    const entry = kind === 'generate' ? 'chat' : 'chatStream';
    it.each(coreOutcomesOf(entry).map((row) => [row.name, row] as const))(
      '%s',
      async (_name, row) => {
        const { outcome, error } = await runRow(major[kind], row);
        if ('route' in row.outcome) {
          // Who answered, and how, mapped from core's answer.
          expect(error, String(error)).toBeUndefined();
          const answeredBy = row.outcome.route.answeredBy;
          const { route, ...metadata } = outcome?.metadata ?? {};
          expect(route).toEqual(row.outcome.route);
          expect({ modelId: outcome?.modelId, ...metadata }).toMatchObject({
            modelId: answeredBy,
            requestedModel: row.model,
            servedModel: answeredBy,
            fallback: answeredBy !== row.model,
          });
          return;
        }
        // Core's error as ai's: an APICallError carrying its facts, retryable as core says.
        const expected = row.outcome.error;
        expect(ai7.APICallError.isInstance(error), String(error)).toBe(true);
        const apiError = error as ai7.APICallError;
        const { retryable, ...facts } = expected;
        expect(apiError.data).toMatchObject(facts);
        expect((apiError.data as Record<string, unknown>).route).toEqual(expected.route);
        expect(apiError.isRetryable).toBe(retryable);
        if (outcome !== undefined) expect(outcome.finishReason).toBe('error');
      },
    );
  });
});

describe.each([AI7, AI6])('a hedged call through $name', (major) => {
  it('streamText: a hedge that failed with a 500 before the first answered is its failure in the route, not lost', async () => {
    const fresh = await drivenGateway({ fault: 'upstream_text', model: 'community/streamer' });
    // The first attempt is held at the gateway until the client has seen the hedge (the call's
    // second attempt) fail: its slot given back.
    let hedgeFailed = false;
    const onEvent = (event: { type: string; attempt?: number }) => {
      if (event.type === 'released' && event.attempt === 2) hedgeFailed = true;
    };
    const release = fresh.hold();
    const outcome = major.stream({
      model: 'community/general',
      provider: { ...fresh.connection, onEvent },
      infergate: { fallbackModels: ['community/streamer'], hedge: { afterMs: 50, maxExtra: 1 } },
    });
    // The hedge starts once the driven clock passed its 50 ms.
    await stepUntil(() => hedgeFailed, 10);
    expect(fresh.emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(1);
    release();
    const { text, modelId, metadata, error } = await settledOnSteps(outcome);
    expect(error).toBeUndefined();
    expect({ text, modelId }).toEqual({ text: 'Echo: hello there', modelId: 'community/general' });
    // Core's route, as providerMetadata carries it: the hedge's 500 ended its one attempt.
    expect((metadata?.route as { hops: unknown[] } | undefined)?.hops).toEqual([
      { model: 'community/streamer', outcome: 'ended', code: 'upstream_error' },
      { model: 'community/general', outcome: 'answered' },
    ]);
    await fresh.untilIdle({ key: DEFAULT_KEYS.full });
  });

  it.each(['generate', 'stream'] as const)(
    "%sText: the hedge wins; the cut attempt's response and released come before done, the last event",
    async (kind) => {
      const events: { type: string; attempt?: number; code?: string }[] = [];
      let ended: () => void = () => {};
      const done = new Promise<void>((resolve) => (ended = resolve));
      const onEvent = (event: { type: string; operation: string; attempt?: number }) => {
        if (event.operation !== 'chat') return;
        events.push(event);
        if (event.type === 'done') ended();
      };
      const fresh = await drivenGateway({
        fault: 'stall_first_chunk',
        model: 'community/general',
        ms: 60_000,
      });
      const { text, modelId } = await settledOnSteps(
        major[kind]({
          model: 'community/general',
          provider: { ...fresh.connection, onEvent },
          infergate: {
            fallbackModels: ['community/streamer'],
            hedge: { afterMs: 50, maxExtra: 1 },
          },
        }),
      );
      expect({ text, modelId }).toEqual({
        text: 'Echo: hello there',
        modelId: 'community/streamer',
      });
      await done;
      await fresh.untilIdle({ key: fresh.apiKey });
      // (otelEvents forgets a call at its `done`: the cut attempt's span ends with its abort.)
      expect(events.at(-1)?.type).toBe('done');
      const cut = events.filter((event) => event.attempt === 1);
      expect(cut.map((event) => event.type)).toEqual([
        'queued',
        'dequeued',
        'attempt',
        'response',
        'released',
      ]);
      expect(cut[3]).toMatchObject({ code: 'aborted' });
    },
  );
});

describe('under load', () => {
  it('16 calls over a list with a small first model: all answered, never above 4 in flight', async () => {
    emulator.scenario.models['community/general']!.capacity = 1;
    const provider = gateway({ circuitBreaker: false });
    const model = provider('community/general', {
      fallbackModels: ['community/streamer', 'community/tools'],
    });
    const calls = Array.from({ length: 16 }, async (_, i) => {
      if (i % 2 === 0) return (await ai7.generateText({ model, prompt: 'one two' })).text;
      return ai7.streamText({ model, prompt: 'one two' }).text;
    });
    expect(await Promise.all(calls)).toEqual(Array(16).fill('Echo: one two'));
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBeLessThanOrEqual(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
    await requestsClosed();
  });
});

describe("ai@7's own timeout next to ours", () => {
  /** A streamText of ai@7 with ai's `timeout`, its parts and its error, on the driven clock. */
  async function streamWithTimeout(
    settings: GatewayChatModelSettings,
    timeout: ai7.TimeoutConfiguration<ai7.ToolSet>,
    fault: FaultRule,
  ) {
    const fresh = await drivenGateway(fault);
    const read = await settledOnSteps(readWithTimeout(fresh.connection, settings, timeout));
    // What the limit cut is closed at the gateway: no slot is left held.
    await fresh.untilIdle({ key: DEFAULT_KEYS.full });
    return read;
  }

  async function readWithTimeout(
    fresh: GatewayConnection,
    settings: GatewayChatModelSettings,
    timeout: ai7.TimeoutConfiguration<ai7.ToolSet>,
  ) {
    let error: unknown;
    const result = ai7.streamText({
      model: gateway(fresh)('community/general', settings),
      prompt: 'hello there',
      timeout,
      maxRetries: 0,
      onError: (event) => {
        error = event.error;
      },
    });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    return { result, types, error };
  }

  // doStream returns at the headers (as openai-compatible's does), so both run before the first
  // content too, and the shorter fires first.
  it("before the first content the shorter limit fires: ai's firstChunkMs aborts the call", async () => {
    const { types, error } = await streamWithTimeout(
      { fallbackModels: ['community/streamer'], firstChunkTimeoutMs: 300 },
      { firstChunkMs: 20 },
      { fault: 'stall_first_chunk', model: 'community/general', ms: 60_000 },
    );
    expect(types).toContain('abort');
    expect(types).not.toContain('error');
    expect(error).toBeUndefined();
  });

  it('before the first content the shorter limit fires: ours fails over to the next model', async () => {
    const { result, types } = await streamWithTimeout(
      { fallbackModels: ['community/streamer'], firstChunkTimeoutMs: 300 },
      { firstChunkMs: 30_000 },
      { fault: 'stall_first_chunk', model: 'community/general', ms: 60_000 },
    );
    expect(types).not.toContain('abort');
    expect(await result.text).toBe('Echo: hello there');
    expect((await result.response).modelId).toBe('community/streamer');
  });

  it("between chunks the shorter limit fires: ai's chunkMs aborts the call, the slot freed", async () => {
    const { types, error } = await streamWithTimeout(
      { chunkTimeoutMs: 60_000 },
      { chunkMs: 50 },
      { fault: 'stall_stream', model: 'community/general', afterChunks: 2, ms: 60_000 },
    );
    // ai's limit is a hard stop: it aborts the call (an `abort` part, no error of ours).
    expect(types).toContain('abort');
    expect(types).not.toContain('error');
    expect(error).toBeUndefined();
  });

  it('between chunks the shorter limit fires: ours fails the stream with timeout', async () => {
    const { types, error } = await streamWithTimeout(
      { chunkTimeoutMs: 50 },
      { chunkMs: 60_000 },
      { fault: 'stall_stream', model: 'community/general', afterChunks: 2, ms: 60_000 },
    );
    expect(types).not.toContain('abort');
    expect(types.slice(-3)).toEqual(['error', 'finish-step', 'finish']);
    expect((error as ai7.APICallError).data).toMatchObject({
      code: 'timeout',
      stall: { phase: 'between-chunks', limitMs: 50 },
    });
  });
});

describe('steering options: where they are read and what is sent', () => {
  it('the provider timeouts apply to every model; the steering fields are never request fields', async () => {
    const fresh = await drivenGateway({
      fault: 'stall_first_chunk',
      model: 'community/general',
      ms: 60_000,
    });
    const result = await settledOnSteps(
      ai7.generateText({
        model: gateway({ ...fresh.connection, firstChunkTimeoutMs: 300 })('community/general', {
          fallbackModels: ['community/streamer'],
        }),
        prompt: 'hello there',
        providerOptions: { infergate: { user: 'user-42', chunkTimeoutMs: 1000 } },
        include: { requestBody: true },
      }),
    );
    expect(result.response.modelId).toBe('community/streamer');
    const body = result.request.body as Record<string, unknown>;
    expect(body.user).toBe('user-42');
    expect(Object.keys(body)).not.toContain('chunkTimeoutMs');
    expect(Object.keys(body)).not.toContain('fallbackModels');
  });

  it.each([
    [
      { fallbackModels: 'community/streamer' },
      'fallbackModels (call option) must be an array of model ids, got a string',
    ],
    [
      { firstChunkTimeoutMs: 0 },
      'firstChunkTimeoutMs (call option) must be a finite number of ms > 0, got 0',
    ],
    [
      { chunkTimeoutMs: '50' },
      'chunkTimeoutMs (call option) must be a finite number of ms > 0, got a string',
    ],
  ])(
    "a wrong %j is refused before sending, by core's one reader (as in core and LangChain)",
    async (infergate, message) => {
      const error = await ai7
        .generateText({
          model: gateway()('community/general'),
          prompt: 'hi',
          maxRetries: 0,
          providerOptions: { infergate },
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(ai7.InvalidArgumentError.isInstance(error), String(error)).toBe(true);
      expect((error as Error).message).toBe(message);
      expect(emulator.counters.requests.chat).toBe(0);
    },
  );
});

describe("a fallback list core cannot read: core's one refusal, before any request", () => {
  const ids = (...list: unknown[]) => list as string[];
  // (A hole: `[, 'b']`; `new Array(2)` has only holes.)
  // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test
  const holed = [, 'community/tools'] as unknown as string[];
  it.each([
    ['a string', 'community/tools' as unknown as string[], 'must be an array of model ids'],
    ['a hole', holed, 'fallbackModels[0] (call option) is a hole'],
    ['only holes', new Array(2) as string[], 'fallbackModels[0] (call option) is a hole'],
    ['a number', ids(7), 'must be a non-empty model id from GET /models, got a number'],
    ['an id twice', ids('community/tools', 'community/tools'), 'repeats fallbackModels[0]'],
    ['the model itself', ids('community/general'), "repeats the call's own model"],
  ])('%s in providerOptions: InvalidArgumentError, no catalog read', async (_name, list, words) => {
    const before = { ...emulator.counters.requests };
    const error = await ai7
      .generateText({
        model: gateway()('community/general'),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: { infergate: { fallbackModels: list } },
      })
      .catch((e: unknown) => e);
    expect(ai7.InvalidArgumentError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toContain(words);
    expect(emulator.counters.requests.chat).toBe(before.chat);
    expect(emulator.counters.requests.models).toBe(before.models);
  });

  it('the same list as a model setting is refused when the model is made (LoadSettingError)', () => {
    const make = () => gateway()('community/general', { fallbackModels: holed });
    expect(make).toThrow(/fallbackModels\[0\] \(model setting\) is a hole/);
    try {
      make();
    } catch (error) {
      expect(ai7.LoadSettingError.isInstance(error)).toBe(true);
    }
    expect(() => gateway()('community/general', { fallbackModels: ['community/general'] })).toThrow(
      "repeats the call's own model",
    );
  });
});
