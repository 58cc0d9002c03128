import type { ChatDialect, ScenarioInput } from '@infergate/emulator';
import { type EmulatedGateway, emulate, type GatewayConnection } from '@infergate/emulator/testing';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { createGateway, type GatewayProviderSettings } from '../src';
import { createGateway as createGatewayV3 } from '../src/v6';

export const BASE_URL = 'https://gateway.test/v1';

/**
 * The providers of both entries on an emulated gateway (`emulate({ as: 'msw', baseURL: BASE_URL })`
 * of `@infergate/emulator/testing`): each call makes a fresh provider, with its own client and
 * catalog cache, whose settings default to the gateway's base URL and key.
 */
export function providersOn(emulated: GatewayConnection) {
  const settingsFor = (settings: GatewayProviderSettings): GatewayProviderSettings => ({
    baseURL: emulated.baseURL,
    apiKey: emulated.apiKey,
    ...settings,
  });
  /** A fresh provider (own client and catalog cache) for the emulator. */
  const gateway = (settings: GatewayProviderSettings = {}) => createGateway(settingsFor(settings));
  /** The same, from `/v6` (AI SDK 6). */
  const gatewayV3 = (settings: GatewayProviderSettings = {}) =>
    createGatewayV3(settingsFor(settings));
  return { gateway, gatewayV3 };
}

/**
 * A gateway emulated behind msw at BASE_URL for one test file, on `scenario` (by default the
 * emulator's own; reset after each test, stopped after all), and the providers of both entries on it.
 */
export async function providersOnMsw(scenario: ScenarioInput = {}) {
  const emulated = await emulate({
    as: 'msw',
    scenario,
    baseURL: BASE_URL,
    hooks: { afterEach, afterAll },
  });
  return { emulated, emulator: emulated.emulator, ...providersOn(emulated) };
}

/**
 * A scenario of scripted models `dialect/<name>` (chat, streaming, tools), each answering in the
 * dialect `dialects` gives its name (the emulator README's dialect table): for `providersOnMsw`.
 */
export function dialectModels(dialects: Record<string, ChatDialect>): ScenarioInput {
  const models = Object.entries(dialects).map(([name, dialect]) => [
    `dialect/${name}`,
    { capabilities: ['chat', 'streaming', 'tools'], dialect },
  ]);
  return { models: Object.fromEntries(models) };
}

/**
 * A provider on `emulated` whose requests go through `fetch`, its breakers off (a test's scripted
 * failures must not open them for the next test); then `settings`.
 */
export function gatewayThrough(
  emulated: GatewayConnection,
  fetch: typeof globalThis.fetch,
  settings: GatewayProviderSettings = {},
) {
  const { baseURL, apiKey } = emulated;
  return createGateway({ baseURL, apiKey, fetch, circuitBreaker: false, ...settings });
}

/**
 * Provider settings whose fetch keeps the JSON body of each chat request it sends through `send`
 * (by default the global fetch, which msw answers), with `settings` merged in.
 */
export function recordingChatBodies(
  settings: GatewayProviderSettings = {},
  send: (request: Request) => Promise<Response> = (request) => globalThis.fetch(request),
) {
  const bodies: Record<string, unknown>[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/chat/completions')) bodies.push(await request.clone().json());
    return send(request);
  };
  return { bodies, settings: { ...settings, fetch } };
}

/**
 * A provider on the kit's gateway whose fetch keeps each chat request's JSON body (emptied before
 * each test): `gateway(settings)` makes one; `recording` is its settings, for another factory.
 */
export function recordingGatewayOn(emulated: EmulatedGateway) {
  const { bodies, settings: recording } = recordingChatBodies({}, (request) =>
    emulated.fetch(request),
  );
  beforeEach(() => {
    bodies.length = 0;
  });
  const gateway = (settings: GatewayProviderSettings = {}) =>
    createGateway({ ...emulated.connection, ...recording, ...settings });
  return { bodies, recording, gateway };
}

/**
 * A fetch whose chat requests `answer` serves (given the request's JSON body and the request): a
 * server sending what the emulator does not. The rest (the catalog) goes to `send`: by default
 * the global fetch, which msw answers.
 */
export function answeringChats(
  answer: (body: ChatBody, request: Request) => Response | Promise<Response>,
  send: (request: Request) => Promise<Response> = (request) => globalThis.fetch(request),
): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return send(request);
    return answer(await request.clone().json(), request);
  };
}

/** What `answeringChats`' answers read of a chat request's body. */
export interface ChatBody {
  model: string;
  stream?: boolean;
  [field: string]: unknown;
}

/**
 * `ask(settings)` (a call on a provider made with `settings`, which record its chat requests)
 * refused by ai's InvalidArgumentError naming `argument`, its message matching `hint`, before any
 * request was sent.
 */
export async function refusedBeforeSending(
  argument: string,
  hint: RegExp,
  ask: (settings: GatewayProviderSettings) => PromiseLike<unknown>,
) {
  const { bodies, settings } = recordingChatBodies();
  const error = await Promise.resolve(ask(settings)).catch((failure: unknown) => failure);
  expect(error).toMatchObject({ name: 'AI_InvalidArgumentError', argument });
  expect((error as Error).message).toMatch(hint);
  expect(bodies).toEqual([]);
}
