// Structured output (issue 52) through ai's own entry points — generateText / streamText with
// `output: Output.object(...)`, generateObject and streamObject — of ai@7 (main entry) and ai@6
// (`/v6`), against the emulator. Core plans how each model serves the schema and checks every
// answer (its walk is tested in core); here the provider sends the schema, and maps the answer
// (the object), the route's `structured` (providerMetadata.infergate) and a failed check (the
// error ai users get for an object that does not match: TypeValidationError).

import { createGatewayClient } from '@infergate/core';
import { DEFAULT_KEYS, type JsonAnswers } from '@infergate/emulator';
import {
  CLAIMED_MODEL,
  emulate,
  WRAPPED_JSON_MODELS,
  withClaimedModel,
  withWrappedJsonModels,
} from '@infergate/emulator/testing';
import * as ai7 from 'ai';
import * as ai6 from 'ai-v6';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import {
  type GatewayChatModelSettings,
  type GatewayChatOptions,
  type GatewayProviderMetadata,
  type GatewayProviderSettings,
  InvalidStructuredOutputError,
} from '../src';
import { providersOn } from './providers';
import { WEATHER_TOOL } from './weather-tool';

/** Serves a schema natively (`json_schema`, verified). */
const NATIVE = 'community/json-schema';
/** Has `tools` only: served by a forced tool call. */
const TOOLS = 'community/tools';
/** Has `json_object` only: the schema stated in a system message. */
const JSON_OBJECT = 'community/json-object';
/** Claims `json_schema` (`provider_claimed`) and answers off the schema every time. */
const CLAIMED = CLAIMED_MODEL;
/** Serves `json_schema`, its JSON always between two sentences (no fence: refused by the check). */
const PROSE = WRAPPED_JSON_MODELS.prose;
/** Serves `json_schema`, its every JSON answer cut short (not JSON). */
const CUT = 'community/json-cut';
/** Has `json_object` only, its JSON always inside a ```json code fence. */
const JSON_OBJECT_FENCED = 'community/json-object-fenced';
/** A streaming model serving JSON by `capability`, its answers as `jsonAnswers` says. */
const jsonModel = (capability: 'json_schema' | 'json_object', jsonAnswers: JsonAnswers) => ({
  owned_by: 'service-community' as const,
  capabilities: ['chat' as const, 'streaming' as const, capability],
  online: true,
  jsonAnswers,
});

// Its own gateway host (reached through the emulator's fetch): the key's budget and hedges in this
// realm are this file's alone.
// With the kit's claimed model and its models wrapping JSON (in a fence, in prose, ...).
const emulated = await emulate({
  scenario: {
    models: {
      ...withClaimedModel().models,
      ...withWrappedJsonModels().models,
      [CUT]: jsonModel('json_schema', { invalidShare: 1 }),
      [JSON_OBJECT_FENCED]: jsonModel('json_object', { wrap: 'fence' }),
    },
  },
  hooks: { afterEach, afterAll },
});
const { emulator } = emulated;
const { gateway, gatewayV3 } = providersOn(emulated);
/** The key's slots in this realm, as any client of this gateway sees them. */
const keySlots = createGatewayClient(emulated.connection).budget;

const Place = z.object({
  city: z.string(),
  kind: z.enum(['town', 'village']),
  where: z.object({ country: z.string(), rank: z.number().int() }),
});
type Place = z.infer<typeof Place>;
const CITY = 'Kyiv on the Dnipro';

/** One call of a test: the model, its steering, and the settings of a fresh provider. */
interface Call {
  model: string;
  settings?: GatewayChatModelSettings;
  infergate?: GatewayChatOptions;
  provider?: GatewayProviderSettings;
}

/** What a test reads back: the object, our metadata, the partial objects of a stream. */
interface Outcome {
  object: Place;
  metadata: GatewayProviderMetadata | undefined;
  partials: unknown[];
}

type AiModule = Pick<
  typeof ai7,
  'generateText' | 'streamText' | 'generateObject' | 'streamObject' | 'Output'
>;
type ProviderOf = (
  settings?: GatewayProviderSettings,
) => (model: string, settings?: object) => ai7.LanguageModel;

/** The four ways ai asks for an object, through one major's functions and provider. */
function entries(ai: AiModule, provider: ProviderOf) {
  const request = (call: Call) => ({
    // Breakers off: each test's faults would open them for the next.
    model: provider({ fetch: emulated.fetch, circuitBreaker: false, ...call.provider })(
      call.model,
      call.settings,
    ),
    // A quoted name the emulator's model fills the schema's text fields with: its words make the
    // streamed JSON come in several pieces.
    prompt: `Where is "${CITY}"?`,
    providerOptions: call.infergate === undefined ? undefined : { infergate: call.infergate },
    maxRetries: 0,
  });
  const metadataOf = (metadata: Record<string, unknown> | undefined) =>
    metadata?.infergate as GatewayProviderMetadata | undefined;
  /** Reads a stream's partials; rethrows the error its `onError` saw, else the promise's. */
  async function streamed<T>(
    partialStream: AsyncIterable<unknown>,
    whole: PromiseLike<T>,
    seen: { error?: unknown },
  ): Promise<{ value: T; partials: unknown[] }> {
    const partials: unknown[] = [];
    for await (const partial of partialStream) partials.push(partial);
    try {
      return { value: await whole, partials };
    } catch (error) {
      throw seen.error ?? error;
    }
  }
  return {
    async 'generateText + Output.object'(call: Call): Promise<Outcome> {
      const result = await ai.generateText({
        ...request(call),
        output: ai.Output.object({ schema: Place }),
      });
      return { object: result.output, metadata: metadataOf(result.providerMetadata), partials: [] };
    },
    async 'streamText + Output.object'(call: Call): Promise<Outcome> {
      const seen: { error?: unknown } = {};
      const result = ai.streamText({
        ...request(call),
        output: ai.Output.object({ schema: Place }),
        onError: ({ error }) => {
          seen.error = error;
        },
      });
      const { value, partials } = await streamed(result.partialOutputStream, result.output, seen);
      return { object: value, metadata: metadataOf(await result.providerMetadata), partials };
    },
    async generateObject(call: Call): Promise<Outcome> {
      const result = await ai.generateObject({ ...request(call), schema: Place });
      return { object: result.object, metadata: metadataOf(result.providerMetadata), partials: [] };
    },
    async streamObject(call: Call): Promise<Outcome> {
      const seen: { error?: unknown } = {};
      const result = ai.streamObject({
        ...request(call),
        schema: Place,
        onError: ({ error }) => {
          seen.error = error;
        },
      });
      const { value, partials } = await streamed(result.partialObjectStream, result.object, seen);
      return { object: value, metadata: metadataOf(await result.providerMetadata), partials };
    },
  };
}

const MAJORS = [
  { name: 'ai@7', entries: entries(ai7, gateway) },
  { name: 'ai@6 (/v6)', entries: entries(ai6 as unknown as AiModule, gatewayV3) },
];
const CASES = MAJORS.flatMap((major) =>
  Object.entries(major.entries).map(([entry, run]) => ({ label: `${major.name} ${entry}`, run })),
);

/** A hop of the route as providerMetadata carries it. */
const hop = (model: string, outcome: string, extra: Record<string, unknown> = {}) => ({
  model,
  outcome,
  ...extra,
});
const served = (method: string, checked: boolean) => ({ structured: { method, checked } });
/** A refused answer's usage on its hop (core's `Usage`). */
const SPENT = expect.objectContaining({ total_tokens: expect.any(Number) });
const badGateway = (model: string) => ({ fault: 'bad_gateway' as const, model });

/** Every model of a list, each serving the schema its own way. */
const THREE_WAYS = { fallbackModels: [TOOLS, JSON_OBJECT] };

describe.each(CASES)('$label', ({ label, run }) => {
  const streams = label.includes('stream');

  it.each([
    ['json_schema', NATIVE, []],
    ['tools', TOOLS, [NATIVE]],
    ['json_object', JSON_OBJECT, [NATIVE, TOOLS]],
  ] as const)(
    'delivers the object a model served by %s (%s), over a list of three ways',
    async (method, answerer, failing) => {
      for (const model of failing) emulator.injectFault(badGateway(model));
      const { object, metadata, partials } = await run({ model: NATIVE, infergate: THREE_WAYS });
      // The object follows the schema, whichever way it was served.
      expect(Place.parse(object)).toEqual(object);
      expect(object.city).toBe(CITY);
      expect(metadata?.servedModel).toBe(answerer);
      expect(metadata?.route.hops).toEqual([
        // (Whether a hop that failed before answering also names its method is core's business.)
        ...failing.map((model) =>
          expect.objectContaining(hop(model, 'failed', { reason: 'all_providers_failed' })),
        ),
        hop(answerer, 'answered', served(method, true)),
      ]);
      // Streamed, the object still arrives in parts (the JSON as text deltas, whatever the method).
      if (streams) expect(partials.length).toBeGreaterThan(1);
    },
  );

  it.each([
    ["the model's setting", { methods: ['json_object'] }, undefined, 'json_object'],
    ["the call's, over the model's", { methods: ['json_object'] }, { methods: ['tools'] }, 'tools'],
  ] as const)(
    'serves it by the methods %s allows (structuredOutput.methods)',
    async (_, model, call, method) => {
      // community/general lists all three methods: only the allowed ones decide.
      const { object, metadata } = await run({
        model: 'community/general',
        settings: { structuredOutput: { methods: [...model.methods] } },
        infergate:
          call === undefined ? undefined : { structuredOutput: { methods: [...call.methods] } },
      });
      expect(Place.parse(object)).toEqual(object);
      expect(metadata?.route.hops).toEqual([
        hop('community/general', 'answered', served(method, true)),
      ]);
    },
  );

  it.each([
    ['a code fence', WRAPPED_JSON_MODELS.fence],
    ['a code fence with prose before and after it', WRAPPED_JSON_MODELS['prose-fence']],
    ["a code fence closed on the JSON's line", WRAPPED_JSON_MODELS['fence-inline']],
  ])(
    'delivers the object of a model that wraps its JSON in %s (streamed: in parts)',
    async (_, model) => {
      const { object, metadata, partials } = await run({ model });
      expect(Place.parse(object)).toEqual(object);
      expect(object.city).toBe(CITY);
      expect(metadata?.route.hops).toEqual([hop(model, 'answered', served('json_schema', true))]);
      if (!streams) return;
      expect(partials.length).toBeGreaterThan(1);
      // Each partial is the object so far: its city a beginning of the whole one.
      for (const partial of partials as { city?: string }[]) {
        expect(CITY.startsWith(partial.city ?? '')).toBe(true);
      }
    },
  );

  it('delivers the object of a single json_object-only model (no list needed)', async () => {
    const { object, metadata } = await run({ model: JSON_OBJECT });
    expect(Place.parse(object)).toEqual(object);
    expect(metadata?.route.hops).toEqual([
      hop(JSON_OBJECT, 'answered', served('json_object', true)),
    ]);
  });

  it.for([
    {
      name: "moves on when a provider_claimed model's answer breaks the schema, and says so",
      // A stream too: with a model left after it, its text is held to its end and checked before
      // any of it reaches the caller.
      refused: CLAIMED,
      next: TOOLS,
      method: 'tools',
    },
    {
      name: 'moves on from JSON in prose (a stream too: its text was held, none reached the caller)',
      refused: PROSE,
      next: NATIVE,
      method: 'json_schema',
    },
  ])('$name', async ({ refused, next, method }) => {
    const { object, metadata } = await run({
      model: refused,
      infergate: { fallbackModels: [next] },
    });
    expect(Place.parse(object)).toEqual(object);
    expect(metadata?.route.hops).toEqual([
      hop(refused, 'failed', {
        reason: 'invalid_structured_output',
        ...served('json_schema', false),
        // The refused answer's tokens were spent: its hop reports them.
        usage: SPENT,
      }),
      hop(next, 'answered', served(method, true)),
    ]);
    expect(metadata?.route.answeredBy).toBe(next);
  });

  it('hands a last answer that is not JSON to ai, which refuses it: NoObjectGeneratedError', async () => {
    // Core hands the last answer on unchecked (`lastAnswer: 'returned'`), JSON or not: ai refuses
    // it by its own rules, as any provider's (structured-output-not-json.test.ts: the error's
    // fields). One model: with a list, the stream would be held and checked, and the next model
    // tried (structured-stream-fallback.test.ts).
    const ai = label.startsWith('ai@7') ? ai7 : (ai6 as unknown as typeof ai7);
    const error = await run({ model: CUT, infergate: {} }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(ai.NoObjectGeneratedError.isInstance(error), String(error)).toBe(true);
    expect(InvalidStructuredOutputError.isInstance(error)).toBe(false);
    // The text the model sent, as it came.
    const { text } = error as ai7.NoObjectGeneratedError;
    expect(text).toMatch(/^\{/);
    expect(() => JSON.parse(text ?? '')).toThrow();
  });

  it('serves the schema on a hedge to a model that serves it another way', async () => {
    // A hedge goes only into a free slot of the key: the slots of earlier tests' refused answers
    // (kept a short grace after the cut) are back first.
    await keySlots.whenIdle();
    // The first model stays silent for longer than any test: the hedge after 50 ms answers.
    emulator.injectFault({ fault: 'stall_first_chunk', model: NATIVE, ms: 60_000 });
    const { object, metadata } = await run({
      model: NATIVE,
      infergate: { fallbackModels: [TOOLS], hedge: { afterMs: 50, maxExtra: 1 } },
    });
    expect(Place.parse(object)).toEqual(object);
    expect(metadata?.route.answeredBy).toBe(TOOLS);
    expect(metadata?.route.hops).toContainEqual(hop(TOOLS, 'answered', served('tools', true)));
    expect(metadata?.route.hops).toContainEqual(hop(NATIVE, 'lost'));
    // The silent first attempt is cut at the gateway: no slot stays held.
    await emulated.untilIdle({ key: DEFAULT_KEYS.full });
  });
});

/**
 * A last answer core's check refuses (JSON in prose, a stream's text held to its end) is handed on
 * to ai, which refuses it: its tokens were spent, reported as any answer's.
 */
describe.each(MAJORS)('$name: the usage of an answer the check refused', ({ name }) => {
  const ai = (name === 'ai@7' ? ai7 : ai6) as unknown as AiModule &
    Pick<typeof ai7, 'streamText' | 'NoObjectGeneratedError'>;
  const provider = name === 'ai@7' ? gateway : gatewayV3;
  const request = () => ({
    model: provider({ fetch: emulated.fetch, circuitBreaker: false })(PROSE),
    prompt: `Where is "${CITY}"?`,
    output: ai.Output.object({ schema: Place }),
    maxRetries: 0,
  });

  it('generateText: NoObjectGeneratedError carries the usage, in ai’s shape', async () => {
    const error = await ai.generateText(request()).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(ai.NoObjectGeneratedError.isInstance(error), String(error)).toBe(true);
    const { usage, finishReason } = error as ai7.NoObjectGeneratedError;
    expect(usage?.inputTokens).toBeGreaterThan(0);
    expect(usage?.outputTokens).toBeGreaterThan(0);
    expect(finishReason).toBe('stop');
  });

  it('streamText: no stream error; the usage resolves, onFinish runs, the output rejects', async () => {
    const seen: { error?: unknown; finished?: ai7.LanguageModelUsage } = {};
    const result = ai.streamText({
      ...request(),
      onError: ({ error }) => {
        seen.error = error;
      },
      onFinish: ({ totalUsage }) => {
        seen.finished = totalUsage;
      },
    });
    await result.consumeStream();
    const usage = await result.usage;
    expect(seen.error).toBeUndefined();
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
    expect(seen.finished?.totalTokens).toBe(usage.totalTokens);
    expect((await result.finishReason) as string).toBe('stop');
    await expect(result.output).rejects.toMatchObject({ name: 'AI_NoObjectGeneratedError' });
  });
});

/** ai's tool loop with a schema: the schema goes with every step, the tool calls come first. */
describe.each([
  {
    name: 'ai@7',
    ai: ai7 as unknown as AiModule & Pick<typeof ai7, 'tool' | 'stepCountIs'>,
    provider: gateway,
  },
  {
    name: 'ai@6 (/v6)',
    ai: ai6 as unknown as AiModule & Pick<typeof ai7, 'tool' | 'stepCountIs'>,
    provider: gatewayV3,
  },
])('$name: tools and Output.object in one loop', ({ ai, provider }) => {
  const Weather = z.object({ city: z.string(), celsius: z.number() });
  const request = () => ({
    model: provider({ fetch: emulated.fetch, circuitBreaker: false })('community/general'),
    tools: { weather: ai.tool(WEATHER_TOOL) },
    stopWhen: ai.stepCountIs(5),
    output: ai.Output.object({ schema: Weather }),
    prompt: 'Use weather for "Lviv"',
    maxRetries: 0,
  });

  it('generateText: the tool step passes unchecked, the last step is the checked object', async () => {
    const result = await ai.generateText(request());
    expect(result.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(['weather']);
    // The tool step was handed on unchecked, and its route says so.
    const first = result.steps[0]?.providerMetadata?.infergate as
      | GatewayProviderMetadata
      | undefined;
    expect(first?.route.hops).toEqual([
      hop('community/general', 'answered', served('json_schema', false)),
    ]);
    expect(result.output).toEqual({ city: 'Lviv', celsius: 21 });
    const metadata = result.providerMetadata?.infergate as GatewayProviderMetadata | undefined;
    expect(metadata?.route.hops).toEqual([
      hop('community/general', 'answered', served('json_schema', true)),
    ]);
  });

  it('streamText: the same, streamed', async () => {
    const result = ai.streamText(request());
    expect(await result.output).toEqual({ city: 'Lviv', celsius: 21 });
    expect((await result.steps)[0]?.toolCalls.map((call) => call.toolName)).toEqual(['weather']);
  });
  it('streamText: a tool step’s text comes as it was sent, its fence too; the answer’s JSON alone', async () => {
    const stepText = 'Let me check ```json\n{"city":"Lviv"}\n``` first.';
    const fetch = answering(emulated.fetch, [
      [
        stepText.slice(0, 20),
        stepText.slice(20),
        { name: 'weather', arguments: '{"city":"Lviv"}' },
      ],
      ['Done.\n```json\n{"city":"Lviv",', '"celsius":21}\n```'],
    ]);
    const model = provider({ fetch, circuitBreaker: false })('community/general');
    const result = ai.streamText({ ...request(), model });
    const texts = [''];
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') texts[texts.length - 1] += part.text;
      if (part.type === 'finish-step') texts.push('');
    }
    expect(texts.slice(0, 2)).toEqual([stepText, '{"city":"Lviv","celsius":21}']);
    expect((await result.steps).map((step) => step.text)).toEqual(texts.slice(0, 2));
    expect(await result.output).toEqual({ city: 'Lviv', celsius: 21 });
  });
});

type AiModuleWithTools = AiModule & Pick<typeof ai7, 'tool' | 'stepCountIs'>;

// `Output.json()` asks for JSON with no schema (`json_object`): a fenced answer is read by core's
// one fence rule, as a schema's is, whole and streamed (@ai-sdk/openai-compatible fails to parse it).
describe.each([
  { name: 'ai@7', ai: ai7 as unknown as AiModuleWithTools, provider: gateway as ProviderOf },
  {
    name: 'ai@6 (/v6)',
    ai: ai6 as unknown as AiModuleWithTools,
    provider: gatewayV3 as ProviderOf,
  },
])('$name: Output.json() (no schema)', ({ ai, provider }) => {
  const ANSWER = { answer: `Echo: Where is "${CITY}"?` };
  const request = (fetch = emulated.fetch) => ({
    model: provider({ fetch, circuitBreaker: false })(JSON_OBJECT_FENCED),
    output: ai.Output.json(),
    prompt: `Where is "${CITY}"?`,
    maxRetries: 0,
  });

  it('generateText: the JSON inside a ```json fence parses', async () => {
    const result = await ai.generateText(request());
    expect(result.output).toEqual(ANSWER);
    expect(result.text).toBe(JSON.stringify(ANSWER));
  });

  it('streamText: the same, the fence left out as the text comes', async () => {
    const result = ai.streamText(request());
    const partials: unknown[] = [];
    for await (const partial of result.partialOutputStream) partials.push(partial);
    expect(await result.output).toEqual(ANSWER);
    expect(await result.text).toBe(JSON.stringify(ANSWER));
    expect(partials.at(-1)).toEqual(ANSWER);
  });

  it('streamText with tools: a tool step’s text comes as it was sent; the answer’s JSON alone', async () => {
    const stepText = 'Let me check ```json\n{"city":"Lviv"}\n``` first.';
    const fetch = answering(emulated.fetch, [
      [stepText, { name: 'weather', arguments: '{"city":"Lviv"}' }],
      ['```json\n{"city":"Lviv",', '"celsius":21}\n```'],
    ]);
    const result = ai.streamText({
      ...request(fetch),
      model: provider({ fetch, circuitBreaker: false })('community/general'),
      tools: { weather: ai.tool(WEATHER_TOOL) },
      stopWhen: ai.stepCountIs(5),
    } as Parameters<typeof ai.streamText>[0]);
    expect((await result.steps).map((step) => step.text)).toEqual([
      stepText,
      '{"city":"Lviv","celsius":21}',
    ]);
    expect(await result.output).toEqual({ city: 'Lviv', celsius: 21 });
  });
});

/**
 * `fetch`, its chat completions answered in turn by the `answers` given: each a stream of text
 * pieces and tool calls (finished `tool_calls` when it has one, else `stop`).
 */
function answering(
  fetch: typeof globalThis.fetch,
  answers: (string | { name: string; arguments: string })[][],
): typeof globalThis.fetch {
  let at = 0;
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return fetch(request);
    const pieces = answers[at++] ?? [];
    const events = pieces.map((piece, index) =>
      typeof piece === 'string'
        ? { content: piece }
        : { tool_calls: [{ index: 0, id: `call_${index}`, type: 'function', function: piece }] },
    );
    const calls = events.some((delta) => 'tool_calls' in delta);
    const lines = [...events, null].map((delta) => {
      const choice = delta
        ? { index: 0, delta }
        : { index: 0, delta: {}, finish_reason: calls ? 'tool_calls' : 'stop' };
      return `data: ${JSON.stringify({ id: 'a', object: 'chat.completion.chunk', choices: [choice] })}\n\n`;
    });
    return new Response(`${lines.join('')}data: [DONE]\n\n`, {
      headers: { 'content-type': 'text/event-stream', 'x-service-model': 'community/general' },
    });
  };
}
