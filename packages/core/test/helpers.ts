import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  DEFAULT_KEYS,
  type Emulator,
  type FaultRule,
  type ModelCapability,
  type ModelSpec,
} from '@infergate/emulator';
import {
  caught as caughtBy,
  drivenClock,
  type EmulatedGateway,
  emulate,
  type GatewayConnection,
  inflightOf,
  type SteppedClock,
  steppedClock,
} from '@infergate/emulator/testing';
import { afterEach, beforeAll, expect, vi } from 'vitest';
import { createInProcessBudget } from '../src/budget/in-process-budget';
import type { KeyBudget } from '../src/budget/key-budget';
import { realmValue } from '../src/budget/realm';
import type { GatewayClient } from '../src/client/client';
import type { GatewayClientOptions } from '../src/client/options';
import { GatewayError, type GatewayErrorCode } from '../src/errors/errors';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import {
  type ChatRequest,
  type ChatStreamOptions,
  createGatewayClient,
  type GatewayEvent,
  isGatewayError,
} from '../src/index';
import type { ClientSteering } from '../src/steering/steering-options';

export { DEFAULT_KEYS };

/**
 * Core's client on a test gateway (`emulate()` of `@infergate/emulator/testing`): its connection,
 * no delay between retries, then `options`. Each gateway has a host of its own, so each test has
 * its own process-wide concurrency budget.
 */
export function clientOn(
  gateway: { connection: GatewayConnection },
  options: GatewayClientOptions = {},
): GatewayClient {
  return createGatewayClient({ ...gateway.connection, retryBaseDelayMs: 0, ...options });
}

/**
 * Core's client on `gateway` through `fetch` with one slot (`maxConcurrency: 1`), two retries at
 * once and a 10 s deadline, then `options`: for tests that each failed attempt gives its slot back.
 */
export function oneSlotClient(
  gateway: { connection: GatewayConnection },
  fetch: typeof globalThis.fetch,
  options: GatewayClientOptions = {},
): GatewayClient {
  return clientOn(gateway, {
    fetch,
    maxRetries: 2,
    maxConcurrency: 1,
    timeoutMs: 10_000,
    ...options,
  });
}

/** Core's client on a kit gateway of its own (its own host, so its own budget), and its emulator. */
export async function harness(options: GatewayClientOptions = {}) {
  const gateway = await emulate();
  return { emulator: gateway.emulator, client: clientOn(gateway, options) };
}

/** The GatewayError a call fails with. */
export const caught = (run: () => unknown) => caughtBy(run, isGatewayError);

export const hi = (model = 'community/general', content = 'hello there') => ({
  model,
  messages: [{ role: 'user' as const, content }],
});

export function totalRequests(emulator: Emulator): number {
  return Object.values(emulator.counters.requests).reduce((sum, n) => sum + n, 0);
}

/**
 * Runs `script` (an ES module) in a fresh Node process with `--expose-gc`, for what only a
 * collection shows, and returns the JSON its output ends with.
 */
export async function runWithGc(script: string, cwd?: string): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--input-type=module', '-e', script],
    // Under the suite's 60 s test timeout, with time to spare for a loaded machine.
    { timeout: 50_000, cwd },
  );
  return JSON.parse(stdout.trim());
}

/**
 * `clientOn`, with the events of the client's chat calls (not its catalog reads) recorded into
 * `events` (pass another client's `events` to record both clients' calls in one list).
 */
export function recordingClient(
  gateway: { connection: GatewayConnection },
  options: GatewayClientOptions = {},
  events: GatewayEvent[] = [],
) {
  const client = clientOn(gateway, {
    onEvent: (event) => {
      if (event.operation !== 'chat') return;
      events.push(event);
      for (const check of eventChecks.get(events) ?? []) check();
    },
    ...options,
  });
  return { client, events };
}

/** The waits of `untilEvents` on each list a `recordingClient` records into. */
const eventChecks = new WeakMap<GatewayEvent[], Set<() => void>>();

/**
 * Resolves once `enough(events)` holds on a `recordingClient`'s list: checked now, then at each
 * event recorded, never on a timer (a test's timeout ends a wait that never comes).
 */
export function untilEvents(
  events: GatewayEvent[],
  enough: (events: GatewayEvent[]) => boolean,
): Promise<void> {
  return new Promise((resolve) => {
    const checks = eventChecks.get(events) ?? new Set();
    eventChecks.set(events, checks);
    const check = () => {
      if (!enough(events)) return;
      checks.delete(check);
      resolve();
    };
    checks.add(check);
    check();
  });
}

/**
 * A gateway (a fresh one unless given) on which `community/general`, or the rule's own `model`,
 * answers with the fault `rule`, and a recording client on it (then `options`).
 */
export async function faulted(
  rule: FaultRule,
  options: GatewayClientOptions = {},
  on: EmulatedGateway | Promise<EmulatedGateway> = emulate(),
) {
  const gateway = await on;
  gateway.emulator.injectFault({ model: 'community/general', ...rule });
  return { gateway, emulator: gateway.emulator, ...recordingClient(gateway, options) };
}

/** Clients on `gateway` (`another(options)` makes one) whose chat events go to one list, `events`. */
export function clientsSharingEvents(gateway: { connection: GatewayConnection }) {
  const events: GatewayEvent[] = [];
  const another = (options: GatewayClientOptions = {}) =>
    recordingClient(gateway, options, events).client;
  return { events, another };
}

/**
 * A `fetch` on `emulator` that runs `before(n, init)` ahead of the `n`th chat request (1, 2, …;
 * the hedge is the 2nd): a test holds, orders or fails the attempts of a hedged call by it.
 */
export function beforeEachChat(
  emulator: { fetch: typeof fetch },
  before: (chat: number, init: RequestInit | undefined) => Promise<void>,
): typeof fetch {
  let chats = 0;
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/chat/completions')) await before(++chats, init);
    return emulator.fetch(input, init);
  };
}

/** The events of one attempt of a call, in order, from its wait for a slot to the slot given back. */
export const ONE_ATTEMPT = ['queued', 'dequeued', 'attempt', 'response', 'released'];

/**
 * For a describe block whose tests drive the clock over hedged calls: core's steering loaded on
 * real timers first (core loads it on a call's first hedge, and a module load under vitest waits
 * on timers), and real timers back after each test.
 */
export function hedgesOnDrivenClock(): void {
  beforeAll(async () => {
    const { client } = recordingClient(await emulate());
    await client.chat(hi(), { hedge: { afterMs: 60_000 } });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** The text of a body holding the gateway's error object: `{ error: { code, message } }`. */
export const errorObjectText = (code: string, message: string) =>
  JSON.stringify({ error: { code, message } });

/**
 * A 200 whose whole JSON body is the gateway's error object `model_busy` saying `message`, with
 * `Retry-After: 3` (docs/gateway-protocol.md §10.3); `busyIn200Read(message)` is what it is read as.
 */
export const busyIn200 = (message: string) =>
  new Response(errorObjectText('model_busy', message), {
    headers: { 'content-type': 'application/json', 'retry-after': '3' },
  });
export const busyIn200Read = (message: string) =>
  ({ code: 'model_busy', message, status: 200, retryAfterMs: 3000 }) as const;

/** The events of one type, typed. */
export function only<T extends GatewayEvent['type']>(
  events: GatewayEvent[],
  type: T,
): Extract<GatewayEvent, { type: T }>[] {
  return events.filter((event): event is Extract<GatewayEvent, { type: T }> => event.type === type);
}

/** The route of a call whose listed models each gave one of `hops`, in order, the last answering. */
export const routeThrough = (...hops: { model: string; outcome: string; reason?: string }[]) => ({
  requested: hops.map((hop) => hop.model),
  hops,
  answeredBy: hops.at(-1)?.model,
});

/** Every capability a model may list (`GET /models`). */
/** How many keys the realm's per-key map `name` holds (hedge timings, breakers' observations…). */
export const sizeOf = (name: string) => realmValue(name, () => new Map<string, unknown>()).size;

export const ALL_CAPABILITIES = ['chat', 'streaming', 'tools', 'json_object', 'json_schema'];

/**
 * `fetch`, which serves chat answers only, also answering `GET /models` with `ids` (each with every
 * capability): core gates every chat call against the catalog, so a stub gateway needs one.
 */
export function withCatalog(
  fetch: typeof globalThis.fetch,
  ids: readonly string[] = ['m'],
): typeof globalThis.fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url).pathname.endsWith('/models')) {
      const data = ids.map((id) => ({
        id,
        object: 'model',
        owned_by: 'service-community',
        kind: 'chat',
        capabilities: ALL_CAPABILITIES,
      }));
      return Promise.resolve(Response.json({ object: 'list', data }));
    }
    return fetch(input, init);
  };
}

/** The JSON Schema of the structured-output emulator tests: nested object, enum, integer. */
export const PLACE_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    kind: { enum: ['town', 'village'] },
    where: {
      type: 'object',
      properties: { country: { type: 'string' }, rank: { type: 'integer' } },
      required: ['country', 'rank'],
    },
  },
  required: ['city', 'kind', 'where'],
  additionalProperties: false,
};

/** A chat request of `model` asking for `PLACE_SCHEMA` by `response_format` (`json_schema`). */
export const askingPlace = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: 'Where is "Oslo"?' }],
  response_format: {
    type: 'json_schema' as const,
    json_schema: { name: 'place', schema: PLACE_SCHEMA },
  },
});

/** A listed, online model of the structured-output emulator tests, with `more` of its spec. */
const soModel = (capabilities: ModelCapability[], more: Partial<ModelSpec> = {}): ModelSpec => ({
  owned_by: 'service-community',
  online: true,
  capabilities,
  ...more,
});
const SCHEMA_STREAMED: ModelCapability[] = ['chat', 'streaming', 'json_schema'];

/**
 * The structured-output emulator tests' models: each serves a schema its own way (`json_schema`,
 * `tools`, `json_object`, none), or answers it off-schema, cut, fenced or in prose.
 */
export const STRUCTURED_MODELS: Record<string, ModelSpec> = {
  'community/so-native': soModel(SCHEMA_STREAMED),
  'community/so-tools': soModel(['chat', 'streaming', 'tools']),
  'community/so-object': soModel(['chat', 'streaming', 'json_object']),
  'community/so-claimed': soModel([...SCHEMA_STREAMED, 'tools'], {
    verification: 'provider_claimed',
    jsonAnswers: { offSchemaShare: 1 },
  }),
  'community/so-cut': soModel(SCHEMA_STREAMED, { jsonAnswers: { invalidShare: 1 } }),
  'community/so-fenced': soModel(SCHEMA_STREAMED, { jsonAnswers: { wrap: 'fence' } }),
  'community/so-prose': soModel(SCHEMA_STREAMED, { jsonAnswers: { wrap: 'prose' } }),
  'community/so-plain': soModel(['chat', 'streaming']),
};

/** `STRUCTURED_MODELS` with the specs in `changed` changed (or added). */
function structuredModels(changed: Record<string, Partial<ModelSpec>>): Record<string, ModelSpec> {
  const models: Record<string, ModelSpec> = { ...STRUCTURED_MODELS };
  for (const [id, spec] of Object.entries(changed)) models[id] = { ...models[id]!, ...spec };
  return models;
}

/**
 * A gateway serving `STRUCTURED_MODELS` (`changed`: specs of some changed or added), a recording
 * client on it (then `options`) whose catalog is read on the real clock.
 */
export async function structuredGateway(
  changed: Record<string, Partial<ModelSpec>> = {},
  options: GatewayClientOptions = {},
) {
  const gateway = await emulate({ scenario: { models: structuredModels(changed) } });
  const { client, events } = recordingClient(gateway, options);
  await client.models();
  return { gateway, client, events };
}

/** A structured call's route hop: `model` answered (`json_schema`), its answer failed the check. */
export const failedCheckHop = (model: string) => ({
  model,
  outcome: 'failed',
  reason: 'invalid_structured_output',
  structured: { method: 'json_schema', checked: false },
  usage: expect.objectContaining({ total_tokens: expect.any(Number) }),
});

/** A structured call's route hop: `model`'s answer, asked for by `method`, checked and handed over. */
export const checkedAnswerHop = (model: string, method = 'json_schema') => ({
  model,
  outcome: 'answered',
  structured: { method, checked: true },
});

/** Far longer than any test: a stall the client must cut, never one that ends by itself. */
export const FOREVER = 60_000;

/** `model`'s next request sends nothing for `ms` before its first chunk (then it answers). */
export const stalledOnce = (emulator: Emulator, model: string, ms = FOREVER) =>
  emulator.injectFault(stalledOnceFault(model, ms));

/** `stalledOnce`'s fault, for a list of faults to inject (`hedgedPlaceStream`). */
export const stalledOnceFault = (model: string, ms = FOREVER): FaultRule => ({
  fault: 'stall_first_chunk',
  model,
  ms,
  times: 1,
});

/**
 * A client on the emulator, which serves the catalog of `models`, whose chat requests of
 * `community/so-native` a stub answers with `body` (of `contentType`): the exact bytes of an answer
 * the emulator does not send. The emulator answers the other models.
 */
export async function soNativeAnswering(
  body: string,
  contentType: string,
  models: Record<string, ModelSpec> = STRUCTURED_MODELS,
): Promise<GatewayClient> {
  const gateway = await emulate({ scenario: { models } });
  const { fetch: gatewayFetch } = gateway.connection;
  return createGatewayClient({
    ...gateway.connection,
    fetch: async (input, init) =>
      String(input).endsWith('/chat/completions') &&
      String(init?.body).includes('"model":"community/so-native"')
        ? new Response(body, { headers: { 'content-type': contentType } })
        : gatewayFetch(input, init),
  });
}

/** A failure the gateway answered with `status`: the fixture of the retry and breaker unit tests. */
export function serverFailure(code: GatewayErrorCode, status: number): GatewayError {
  return new GatewayError({ code, message: `the gateway answered ${status}`, status });
}

/** A client's steering with nothing set: the readers' neutral input. */
export const NO_CLIENT_STEERING: ClientSteering = {
  firstChunkTimeoutMs: undefined,
  chunkTimeoutMs: undefined,
  hedge: undefined,
  circuitBreaker: false,
};

/**
 * Where a wait is the subject (a hedge's `afterMs`, a stall limit, a deadline), the test moves the
 * clock (the kit's `drivenClock`): `driveClock()` fakes the timers, `performance.now()` (core's
 * monotonic clock) and `Date`; undo with `vi.useRealTimers()`. `settledAfter(ms, promise)` moves
 * it by `ms` and returns what `promise` settled to, failing at once if it has not settled by then.
 */
const clock = drivenClock(vi);
export const driveClock = clock.drive;
export const settledAfter = clock.settledAfter;

/**
 * On the driven clock: the error `run` fails with once the clock moved `ms`, its deadline: a
 * timeout whose message names that deadline.
 */
export async function timedOutAt(ms: number, run: () => unknown): Promise<GatewayError> {
  const error = await settledAfter(ms, caught(run));
  expect(error.code).toBe('timeout');
  expect(error.message).toContain(`within its deadline of ${ms} ms`);
  return error;
}

/**
 * On the driven clock: once the client's slots are back (a cut request's after its grace; `whenIdle`
 * looks again every 10 ms, hence the 20 ms more).
 */
export const idle = (client: GatewayClient) =>
  settledAfter(CUT_REQUEST_GRACE_MS + 20, client.budget.whenIdle());

/**
 * A gateway whose catalog answers after 300 ms and whose `community/general` never answers in
 * time, with a client on it: a call's one deadline, its catalog read counted in it, is the subject.
 * Fake timers must be on (the emulator's delays are timers).
 */
export async function slowCatalogGateway(): Promise<{ client: GatewayClient; emulator: Emulator }> {
  const gateway = await emulate();
  const { emulator } = gateway;
  emulator.injectFault({ fault: 'slow_headers', endpoint: 'models', ms: 300 });
  emulator.injectFault({ fault: 'slow_headers', model: 'community/general', ms: 20_000 });
  return { client: clientOn(gateway), emulator };
}

/**
 * A gateway whose embeddings service lists no engine when the client caches `/capabilities`, then
 * lists `all-minilm-l6-v2` again (the multilingual engine stays gone): a cached refusal read again
 * is the subject.
 */
export async function engineBackAfterCaching(): Promise<{
  client: GatewayClient;
  emulator: Emulator;
}> {
  const { connection, emulator } = await emulate({
    scenario: {
      services: {
        embeddings: {
          engines: { 'multilingual-e5-base': null, 'all-minilm-l6-v2': { available: false } },
        },
      },
    },
  });
  const client = clientOn({ connection });
  await client.services(); // caches an embeddings entry listing no engine
  emulator.scenario.services.embeddings.engines['all-minilm-l6-v2']!.available = true;
  return { client, emulator };
}

/** A promise and the function that resolves it. */
export function deferred<T = void>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/**
 * A shared budget's stand-in: core's in-process budget, but `acquireIfFree` (a hedge's ask) is
 * answered only when the test calls `answer()`, as a Redis round trip would be, later. `asked`
 * resolves when the hedge asks; `granted` with what it granted then (`released` turns true when
 * that slot is given back), `givenBack` once it is.
 */
export function slowIfFreeBudget() {
  const inner = createInProcessBudget();
  const asked = deferred();
  const answered = deferred();
  const granted = deferred<{ released: boolean } | undefined>();
  const givenBack = deferred();
  const budget: KeyBudget = {
    acquire: (request) => inner.acquire(request),
    async acquireIfFree(request) {
      asked.resolve();
      await answered.promise;
      const lease = await inner.acquireIfFree?.(request);
      const seen = lease && { released: false };
      granted.resolve(seen);
      if (!lease || !seen) return lease;
      return {
        release: () => {
          seen.released = true;
          lease.release();
          givenBack.resolve();
        },
      };
    },
  };
  return {
    budget,
    asked: asked.promise,
    answer: () => answered.resolve(),
    granted: granted.promise,
    givenBack: givenBack.promise,
  };
}

/**
 * Core's client (no retries) on a kit gateway that serves the catalog, with every chat request
 * answered by a stub: 200, `body`, `headers` — for answers the emulator does not send.
 */
export async function chatAnsweredWith(
  body: string,
  headers: Record<string, string>,
): Promise<GatewayClient> {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (!String(input).endsWith('/chat/completions')) return gatewayFetch(input, init);
    return new Response(body, { headers });
  };
  return createGatewayClient({ ...gateway.connection, maxRetries: 0, fetch });
}

/** `hedgedPlaceStream`'s hedge: sent 30 ms after the first request if no content came. */
export const PLACE_HEDGE = { afterMs: 30, maxExtra: 1 };

/**
 * A hedged structured stream on the driven clock (the describe calls `hedgesOnDrivenClock()`): a
 * gateway serving `models` (else `STRUCTURED_MODELS` with `changed`), a recording client
 * (`options`) that has read the catalog, `faults` injected, then `askingPlace(first)` streamed over
 * `fallbacks` with `PLACE_HEDGE`.
 */
export async function hedgedPlaceStream(setup: {
  first: string;
  fallbacks: string[];
  models?: Record<string, ModelSpec>;
  changed?: Record<string, Partial<ModelSpec>>;
  options?: GatewayClientOptions;
  faults?: FaultRule[];
}) {
  const models = setup.models ?? structuredModels(setup.changed ?? {});
  const gateway = await emulate({ scenario: { models } });
  const { client, events } = recordingClient(gateway, setup.options);
  await client.models();
  for (const fault of setup.faults ?? []) gateway.emulator.injectFault(fault);
  driveClock();
  const opened = client.chatStream(askingPlace(setup.first), {
    fallbackModels: setup.fallbacks,
    hedge: PLACE_HEDGE,
  });
  return { gateway, client, events, opened };
}

/** Until a hedge's first content cut the first attempt: two requests in flight, then one. */
export async function untilHedgeCut(gateway: EmulatedGateway): Promise<void> {
  await settledAfter(50, gateway.untilInflight(2));
  await settledAfter(
    50,
    gateway.until((counters) => inflightOf(counters) === 1),
  );
}

/** On the driven clock: a recorded call's attempts, each as `<ms after the first> <model>`. */
export function askedWhen(events: GatewayEvent[]): string[] {
  const attempts = only(events, 'attempt');
  const start = attempts[0]?.time ?? 0;
  return attempts.map((attempt) => `${attempt.time - start} ${attempt.model}`);
}

/** The two ways a hedge test asks, for its `describe.each`: streamed (`chatStream`), or whole (`chat`). */
export const STREAMED_OR_WHOLE: [string, boolean][] = [
  ['chatStream', false],
  ['chat', true],
];

/**
 * On the driven clock (the describe calls `hedgesOnDrivenClock()`): `structuredGateway(changed,
 * options)` with `faults` injected, the clock then driven.
 */
export async function drivenStructured(
  changed: Record<string, Partial<ModelSpec>>,
  options: GatewayClientOptions,
  faults: FaultRule[],
) {
  const { gateway, client, events } = await structuredGateway(changed, options);
  for (const fault of faults) gateway.emulator.injectFault(fault);
  driveClock();
  return { gateway, client, events };
}

/**
 * On the driven clock: `drivenStructured(changed, options, faults)`, and `ask()`, which asks
 * `request(first)` (else a plain "hi") over [first, ...`fallbacks`] hedged by `PLACE_HEDGE` (`whole`:
 * by `chat`) — left to the test, which may hold the gateway's requests first.
 */
export async function drivenHedge(setup: {
  first: string;
  fallbacks: string[];
  changed?: Record<string, Partial<ModelSpec>>;
  options: GatewayClientOptions;
  faults: FaultRule[];
  whole: boolean;
  request?: (model: string) => ChatRequest;
}) {
  const { changed = {}, options, faults } = setup;
  const { gateway, events, client } = await drivenStructured(changed, options, faults);
  const request = setup.request?.(setup.first) ?? hi(setup.first, 'hi');
  const hedged = { fallbackModels: setup.fallbacks, hedge: PLACE_HEDGE };
  const ask = (): Promise<unknown> => askedFor(client, request, hedged, setup.whole);
  return { gateway, events, client, ask };
}

/**
 * A `drivenHedge` `ask()`ed with the gateway holding its requests: the call (not yet awaited), once
 * the first request is held, and what releases the held requests.
 */
export async function askedHeld(setup: Awaited<ReturnType<typeof drivenHedge>>) {
  const releaseFirst = setup.gateway.hold('chat', { faults: true });
  const call = setup.ask();
  await settledAfter(10, setup.gateway.untilHeld(1));
  return { call, releaseFirst };
}

/**
 * `askedHeld`, the first request kept held while the hedge's goes (its 429
 * `client_concurrency_exceeded`, the test's fault, answers at once); once that 429 is told, the
 * first request released and the call settled (a failed call rejects here).
 */
export async function settledHedgeToldKeyLimit(setup: Awaited<ReturnType<typeof drivenHedge>>) {
  const { gateway, events } = setup;
  const { call, releaseFirst } = await askedHeld(setup);
  gateway.hold('chat')();
  const keyLimit = (event: { type: string; code?: string }) =>
    event.type === 'response' && event.code === 'client_concurrency_exceeded';
  await settledAfter(
    30,
    untilEvents(events, (all) => all.some(keyLimit)),
  );
  releaseFirst();
  await settledAfter(10_000, call);
}

/**
 * On the driven clock: `askingPlace(first)` asked (`whole`: by `chat`) over [first, `fallback`]
 * hedged by `PLACE_HEDGE`, on `drivenStructured(changed, options, faults)`; `call` not yet awaited.
 */
export async function hedgedPlaceAsked(setup: {
  first: string;
  fallback: string;
  changed: Record<string, Partial<ModelSpec>>;
  options: GatewayClientOptions;
  faults: FaultRule[];
  whole: boolean;
}) {
  const fallbacks = [setup.fallback];
  const { gateway, events, ask } = await drivenHedge({ ...setup, fallbacks, request: askingPlace });
  return { gateway, events, call: ask() };
}

/** `askingPlace(model)` asked with `options`, to its result: streamed (`chatStream`), or `whole` (`chat`). */
export function askPlace(
  client: GatewayClient,
  model: string,
  options: ChatStreamOptions,
  whole = false,
) {
  return askedFor(client, askingPlace(model), options, whole);
}

/** `request` asked with `options`, to its result: streamed (`chatStream`), or `whole` (`chat`). */
function askedFor(
  client: GatewayClient,
  request: ChatRequest,
  options: ChatStreamOptions,
  whole: boolean,
): Promise<unknown> {
  return whole
    ? client.chat(request, options)
    : client.chatStream(request, options).then((stream) => stream.result());
}

/** `hi(model)` streamed and read to its end: the text handed out, and the stream's result. */
export async function streamedReply(
  client: GatewayClient,
  model: string,
  options: Parameters<GatewayClient['chatStream']>[1] = {},
) {
  const stream = await client.chatStream(hi(model), options);
  let text = '';
  for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
  return { text, result: await stream.result() };
}

/** Answers a chat request of `model` itself, or leaves it to the emulator (undefined). */
export type ChatStub = (model: string | undefined) => Response | undefined;

/**
 * A client (2 retries at once, no breaker) whose chat requests `stub` answers where it returns a
 * response, the emulator elsewhere: `sent` keeps each chat request's model, `events` the chat
 * events.
 */
export async function stubbedChatClient(stub: ChatStub, options: Record<string, unknown> = {}) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const sent: string[] = [];
  const events: GatewayEvent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (init?.method !== 'POST' || typeof init.body !== 'string') return gatewayFetch(input, init);
    const { model } = JSON.parse(init.body) as { model?: string };
    sent.push(String(model));
    return stub(model) ?? gatewayFetch(input, init);
  };
  const client = createGatewayClient({
    ...gateway.connection,
    fetch,
    maxRetries: 2,
    retryBaseDelayMs: 0,
    circuitBreaker: false,
    onEvent: (event) => {
      if (event.operation === 'chat') events.push(event);
    },
    ...options,
  });
  return { client, sent, events };
}

/**
 * The kit's `steppedClock` for every test of a file (cooldowns passing on core's clock, moved by
 * hand): call the function it returns to start one; it is restored after each test.
 */
export function steppedClockEachTest(): () => SteppedClock {
  let clock: SteppedClock | undefined;
  afterEach(() => {
    clock?.restore();
    clock = undefined;
  });
  return () => {
    clock?.restore();
    clock = steppedClock();
    return clock;
  };
}

/**
 * A client (`clientOn`) on a fresh emulator that keeps the JSON body of each request it sends, any
 * call's, as sent.
 */
export async function recordingBodies() {
  const gateway = await emulate();
  const bodies: Record<string, unknown>[] = [];
  const client = clientOn(gateway, {
    fetch: async (input, init) => {
      if (typeof init?.body === 'string') bodies.push(JSON.parse(init.body));
      return gateway.fetch(input, init);
    },
  });
  return { gateway, client, bodies, emulator: gateway.emulator };
}
