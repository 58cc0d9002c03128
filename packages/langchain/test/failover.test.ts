// fallbackModels and the stall timeouts through invoke / stream / bindTools / withStructuredOutput
// and createAgent, against the emulator: core walks the list (its walk is checked in core's tests,
// its outcomes in the kit's CORE_OUTCOMES); here the model passes it (field or call option),
// reports who answered in response_metadata and throws core's error with LangChain's code.

import {
  createGatewayClient,
  type GatewayError,
  type GatewayEvent,
  isGatewayError,
} from '@infergate/core';
import { DEFAULT_KEYS, type Emulator } from '@infergate/emulator';
import {
  type CoreOutcome,
  caught,
  coreOutcomesOf,
  drivenClock,
  emulate,
  type GatewayConnection,
  until,
  untilIdle,
} from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { concat } from '@langchain/core/utils/stream';
import { createAgent } from 'langchain';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel, type GatewayChatModelFields } from '../src/index';
import { recordingGateway } from './helpers';

const weather = tool(async ({ city }) => `sunny in ${city}`, {
  name: 'weather',
  description: 'Current weather in a city',
  schema: z.object({ city: z.string() }),
});

type ModelFields = Omit<GatewayChatModelFields, 'model'>;

/** A fresh emulator, and a model on it whose client records core's events of chat calls. */
async function setup(model: string, fields: ModelFields = {}) {
  const { emulator, bodies, connection } = await recordingGateway();
  const events: GatewayEvent[] = [];
  const chat = new GatewayChatModel(model, {
    ...connection,
    onEvent: (event) => {
      if (event.operation === 'chat') events.push(event);
    },
    ...fields,
  });
  const ofType = <T extends GatewayEvent['type']>(type: T) =>
    events.filter((event): event is Extract<GatewayEvent, { type: T }> => event.type === type);
  return { emulator, bodies, chat, ofType };
}

/** The whole streamed message. */
async function streamed(stream: AsyncIterable<AIMessageChunk>): Promise<AIMessageChunk> {
  let whole: AIMessageChunk | undefined;
  for await (const chunk of stream) whole = whole === undefined ? chunk : concat(whole, chunk);
  return whole!;
}

const inflight = (emulator: Emulator) => emulator.counters.inflight[DEFAULT_KEYS.full] ?? 0;

/** An hour: a wait on this Retry-After could never end the test. */
const busy = (emulator: Emulator, model = 'community/general') =>
  emulator.injectFault({ fault: 'model_busy', model, retryAfter: 3600 });

/** LangChain's code (`lc_error_code`) of the table's errors that are one of its cases. */
const LANGCHAIN_CODE: Record<string, string> = { model_busy: 'MODEL_RATE_LIMIT' };

// Core loads its steering (and its call events) on first use, and a module load under vitest waits
// on timers: one call with both, on real timers, before a test drives the clock.
const clock = drivenClock(vi);
beforeAll(async () => {
  const { connection } = await emulate();
  const warm = new GatewayChatModel('community/general', {
    ...connection,
    onEvent: () => {},
  });
  const steering = {
    fallbackModels: ['community/streamer'],
    firstChunkTimeoutMs: 60_000,
    chunkTimeoutMs: 60_000,
    hedge: { afterMs: 30_000 },
  };
  await warm.invoke('hi', steering);
  await streamed(await warm.stream('hi', steering));
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * `row` of the kit's table through `invoke` (core's chat) or `stream` (chatStream), on a fresh
 * gateway (its own catalog, breakers and hedge budget): the message, or the error it threw.
 */
async function runRow(row: CoreOutcome, entry: 'chat' | 'chatStream') {
  const gateway = await emulate();
  for (const fault of row.faults) gateway.emulator.injectFault(fault);
  // Breakers are the client's (a shared client's, as a LangChain user sets them).
  const client = createGatewayClient({
    ...gateway.connection,
    circuitBreaker: row.circuitBreaker ?? false,
  });
  // `streaming` says which of core's entries LangChain's call takes, whatever its default.
  const chat = new GatewayChatModel(row.model, { client, streaming: entry === 'chatStream' });
  const model = row.tools ? chat.bindTools([weather]) : chat;
  const prompt = row.tools ? 'weather for "Lviv"' : 'hello there';
  const call = async () =>
    entry === 'chat'
      ? model.invoke(prompt, row.steering)
      : streamed(await model.stream(prompt, row.steering));
  for (let i = 0; i < (row.callsBefore ?? 0); i++) await call().catch(() => undefined);
  // A stall limit or a hedge's delay is passed on the driven clock, moved until the call settles.
  const { firstChunkTimeoutMs, chunkTimeoutMs, hedge } = row.steering;
  const timed = [firstChunkTimeoutMs, chunkTimeoutMs, hedge].some((limit) => limit !== undefined);
  if (timed) clock.drive();
  const result = await (timed ? clock.settledOnSteps(call()) : call()).then(
    (message) => ({ message, error: undefined }),
    (error: unknown) => ({ message: undefined, error }),
  );
  // What the walk cut is closed at the gateway: no slot is left held.
  await gateway.untilIdle({ key: gateway.apiKey });
  return result;
}

describe.each([
  ['invoke', 'chat'],
  ['stream', 'chatStream'],
] as const)("core's outcomes (the kit's CORE_OUTCOMES) through %s", (_kind, entry) => {
  it.each(coreOutcomesOf(entry).map((row) => [row.name, row] as const))(
    '%s',
    async (_name, row) => {
      const { message, error } = await runRow(row, entry);
      if ('route' in row.outcome) {
        // Who answered, and how, mapped from core's answer into response_metadata.
        expect(error, String(error)).toBeUndefined();
        const { model_name, requested_model, fallback, route } = message?.response_metadata ?? {};
        const { answeredBy } = row.outcome.route;
        const expected = {
          answeredBy,
          fallback: answeredBy !== row.model,
          route: row.outcome.route,
        };
        expect({ answeredBy: model_name, requested_model, fallback, route }).toEqual({
          ...expected,
          requested_model: row.model,
        });
        return;
      }
      // Core's error, thrown as it is, with LangChain's code where it has one.
      const { retryable: _retryable, ...facts } = row.outcome.error;
      expect(isGatewayError(error), String(error)).toBe(true);
      expect(error).toMatchObject(facts);
      expect((error as GatewayError).route).toEqual(facts.route);
      expect((error as { lc_error_code?: string }).lc_error_code).toBe(LANGCHAIN_CODE[facts.code]);
    },
  );
});

describe('GatewayChatModel with fallbackModels', () => {
  it('stream: the same, the route on the last chunk; the call option wins over the field', async () => {
    const { emulator, chat } = await setup('community/general', {
      fallbackModels: ['community/streamer'],
    });
    busy(emulator);
    const message = await streamed(
      await chat.stream('hello there', { fallbackModels: ['community/json-object'] }),
    );
    expect(message.text).toBe('Echo: hello there');
    expect(message.response_metadata).toMatchObject({
      model_name: 'community/json-object',
      route: { requested: ['community/general', 'community/json-object'] },
    });
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('invoke: a first model put behind the next one (an unlisted own model) shows in the route and events (rv-steer F5)', async () => {
    const { emulator, chat, ofType } = await setup('my/laptop-model', {
      fallbackModels: ['community/general'],
    });
    const message = await chat.invoke('hello there');
    expect(message.response_metadata).toMatchObject({
      model_name: 'community/general',
      route: {
        requested: ['my/laptop-model', 'community/general'],
        hops: [
          { model: 'my/laptop-model', outcome: 'deferred', reason: 'not_in_catalog' },
          { model: 'community/general', outcome: 'answered' },
        ],
      },
    });
    expect(ofType('model-deferred')).toMatchObject([
      { model: 'my/laptop-model', reason: 'not_in_catalog', ahead: 'community/general' },
    ]);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('stream: a list whose every model streams (catalog) is streamed; one with a model that does not is asked whole', async () => {
    const { bodies, chat } = await setup('community/general', {
      fallbackModels: ['community/streamer'],
    });
    const message = await streamed(await chat.stream('hello there'));
    expect(message.text).toBe('Echo: hello there');
    // community/plain has no `streaming`: the list's answer is asked whole, so it may answer.
    await streamed(await chat.stream('hello there', { fallbackModels: ['community/plain'] }));
    expect(bodies.map((body) => [body.stream, body.stream_options])).toEqual([
      [true, { include_usage: true }],
      [undefined, undefined],
    ]);
  });

  it('a call option [] turns the list off: the model is refused by its own check again', async () => {
    const { emulator, chat } = await setup('community/plain', {
      fallbackModels: ['community/streamer'],
      streaming: true,
    });
    const error = await caught(chat.invoke('hi', { fallbackModels: [] }));
    expect(isGatewayError(error) && error.code).toBe('unsupported_model_capability');
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('streaming: true on a model known to lack streaming is not refused with a list', async () => {
    const { emulator, chat } = await setup('community/plain', {
      capabilities: ['chat'],
      streaming: true,
      fallbackModels: ['community/streamer'],
    });
    const message = await chat.invoke('hello there');
    expect(message.text).toBe('Echo: hello there');
    expect(message.response_metadata.model_name).toBe('community/streamer');
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('bindTools: the list as a bound kwarg is a call option, never a request field', async () => {
    const { emulator, bodies, chat } = await setup('community/general');
    busy(emulator);
    const bound = chat.bindTools([weather], {
      fallbackModels: ['community/tools'],
      firstChunkTimeoutMs: 60_000,
    });
    const message = await bound.invoke('weather for "Lviv"');
    expect(message.response_metadata.model_name).toBe('community/tools');
    for (const body of bodies) {
      expect(Object.keys(body)).not.toContain('fallbackModels');
      expect(Object.keys(body)).not.toContain('firstChunkTimeoutMs');
      expect(body.modelKwargs).toBeUndefined();
    }
  });

  it('withStructuredOutput: each listed model serves the schema its own way; one that cannot is skipped', async () => {
    const { emulator, bodies, chat, ofType } = await setup('community/streamer', {
      fallbackModels: ['community/tools', 'community/json-schema'],
    });
    const Person = z.object({ name: z.string(), age: z.number() });
    const person = await chat.withStructuredOutput(Person).invoke('describe someone');
    expect(Person.parse(person)).toEqual(person);
    expect(bodies[0]?.model).toBe('community/tools');
    expect(bodies[0]?.tool_choice).toMatchObject({ type: 'function' });
    expect(ofType('model-skipped')).toMatchObject([
      { model: 'community/streamer', reason: 'missing_capability' },
    ]);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('withStructuredOutput(...).stream(): a model whose JSON came in prose (its text all held) is moved on from', async () => {
    const prose = {
      owned_by: 'service-community' as const,
      online: true,
      capabilities: ['chat' as const, 'streaming' as const, 'json_schema' as const],
      jsonAnswers: { wrap: 'prose' as const },
    };
    const { bodies, connection } = await recordingGateway({
      models: { 'community/json-prose': prose },
    });
    // (`streaming`: the chain's model call streams, as `.stream()` alone does not make it.)
    const chat = new GatewayChatModel('community/json-prose', {
      ...connection,
      streaming: true,
      fallbackModels: ['community/json-schema'],
    });
    const Place = z.object({ city: z.string() });
    const parts: unknown[] = [];
    for await (const part of await chat.withStructuredOutput(Place).stream('Where is "Oslo"?')) {
      parts.push(part);
    }
    expect(Place.parse(parts.at(-1))).toEqual({ city: 'Oslo' });
    expect(bodies.map((body) => `${body.model}:${body.stream}`)).toEqual([
      'community/json-prose:true',
      'community/json-schema:true',
    ]);
  });

  it('an abort during failover stops the walk and frees every slot', async () => {
    const { emulator, chat } = await setup('community/general', {
      fallbackModels: ['community/streamer', 'community/json-object'],
    });
    busy(emulator);
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/streamer', ms: 60_000 });
    const controller = new AbortController();
    const outcome = caught(chat.invoke('hi', { signal: controller.signal }));
    // The second model holds the request, silent: abort while the walk waits on it.
    await until(emulator, (counters) => counters.requests.chat === 2 && inflight(emulator) === 1);
    expect(emulator.counters.requests.chat).toBe(2);
    controller.abort();
    const error = await outcome;
    expect(isGatewayError(error) && error.code).toBe('aborted');
    expect(emulator.counters.requests.chat).toBe(2);
    // Its slot is given back: the gateway holds none of the key's requests.
    await untilIdle(emulator, { key: DEFAULT_KEYS.full });
  });

  it.each([
    [
      'create: a first model the catalog does not list is not refused; each call skips it',
      async (connection: GatewayConnection) => {
        const chat = await GatewayChatModel.create('community/retired', {
          ...connection,
          streaming: true,
          fallbackModels: ['community/streamer'],
        });
        return chat.invoke('hello there');
      },
    ],
    [
      'stream: a first model the catalog does not list is skipped while .stream() decides whether to stream',
      async (connection: GatewayConnection) => {
        const chat = new GatewayChatModel('community/retired', {
          ...connection,
          fallbackModels: ['community/streamer'],
        });
        return streamed(await chat.stream('hello there'));
      },
    ],
  ])('%s', async (_title, call) => {
    const { emulator, connection } = await emulate();
    const message = await call(connection);
    expect(message.text).toBe('Echo: hello there');
    expect(message.response_metadata).toMatchObject({
      model_name: 'community/streamer',
      route: {
        hops: [{ model: 'community/retired', outcome: 'skipped', reason: 'not_in_catalog' }, {}],
      },
    });
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('keeps the list and timeouts when serialised', async () => {
    const { connection } = await emulate();
    const chat = new GatewayChatModel('community/general', {
      ...connection,
      fallbackModels: ['community/streamer'],
      firstChunkTimeoutMs: 20_000,
    });
    const json = chat.toJSON();
    expect(json.type === 'constructor' && json.kwargs).toMatchObject({
      fallback_models: ['community/streamer'],
      first_chunk_timeout_ms: 20_000,
    });
  });
});

describe('createAgent with fallbackModels', () => {
  it('runs its tool loop on the second model while the first is busy', async () => {
    const { emulator, chat } = await setup('community/general', {
      fallbackModels: ['community/tools'],
    });
    busy(emulator);
    const agent = createAgent({ model: chat, tools: [weather] });
    const result = await agent.invoke({
      messages: [{ role: 'user', content: 'weather for "Kyiv"' }],
    });
    expect(result.messages.at(-1)?.text).toBe('Tool weather returned: sunny in Kyiv');
    const answers = result.messages.filter((message) => message.type === 'ai');
    const answeredBy = answers.map(
      (message) => (message.response_metadata as { model_name?: string }).model_name,
    );
    expect(answeredBy).toEqual(['community/tools', 'community/tools']);
    expect(emulator.counters.requests.chat).toBe(4);
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBeLessThanOrEqual(4);
  });
});

describe("a fallback list core cannot read: core's one refusal, before any request", () => {
  // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test
  const holed = [, 'community/tools'] as unknown as string[];
  const cases: [string, unknown, string][] = [
    [
      'a string (once walked as its characters)',
      'community/tools',
      'must be an array of model ids',
    ],
    ['a hole', holed, 'fallbackModels[0] (call option) is a hole'],
    ['only holes', new Array(2), 'fallbackModels[0] (call option) is a hole'],
    ['a number', [7], 'must be a non-empty model id from GET /models, got a number'],
    ['an id twice', ['community/tools', 'community/tools'], 'repeats fallbackModels[0]'],
    ['the model itself', ['community/general'], "repeats the call's own model"],
  ];

  it.each(cases)(
    '%s as a call option: invalid_request_error, no request',
    async (_name, list, words) => {
      const { emulator, chat } = await setup('community/general');
      const error = await caught(chat.invoke('hi', { fallbackModels: list as string[] }));
      expect(error).toMatchObject({ code: 'invalid_request_error', field: expect.any(String) });
      expect((error as Error).message).toContain(words);
      expect(emulator.counters.requests.chat ?? 0).toBe(0);
      expect(emulator.counters.requests.models ?? 0).toBe(0);
    },
  );

  it.each(cases)(
    '%s as the field: configuration_error when the model is built',
    (_name, list, words) => {
      const make = () =>
        new GatewayChatModel('community/general', { fallbackModels: list as string[] });
      expect(make).toThrow(words.replace('(call option)', '(model setting)'));
      try {
        make();
      } catch (error) {
        expect(error).toMatchObject({ code: 'configuration_error' });
      }
    },
  );
});
