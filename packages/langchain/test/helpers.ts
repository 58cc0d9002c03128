import { DEFAULT_KEYS, type Emulator, type ScenarioInput } from '@infergate/emulator';
import {
  type EmulatedGateway,
  type EmulateOptions,
  emulate,
  type GatewayConnection,
} from '@infergate/emulator/testing';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { concat } from '@langchain/core/utils/stream';
import { createAgent } from 'langchain';
import { expect } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel, type GatewayChatModelFields } from '../src/index';

export const API_KEY = DEFAULT_KEYS.full;

/**
 * `gateway.connection` with a fetch that shows `intercept` (a copy of) each request first; a
 * Response it returns is the answer instead of the emulator's.
 */
export function intercepting(
  gateway: EmulatedGateway,
  intercept: (request: Request, emulator: Emulator) => Promise<Response | undefined>,
): GatewayConnection {
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    return (await intercept(request.clone(), gateway.emulator)) ?? gateway.fetch(request);
  };
  return { ...gateway.connection, fetch };
}

/** An emulated gateway whose connection records the JSON body of every request to `path`. */
export async function recordingGateway<Body = Record<string, unknown>>(
  scenario?: ScenarioInput,
  path = '/chat/completions',
) {
  const bodies: Body[] = [];
  const gateway = await emulate({ scenario });
  const connection = intercepting(gateway, async (request) => {
    if (request.url.endsWith(path)) bodies.push(await request.json());
    return undefined;
  });
  return { emulator: gateway.emulator, bodies, connection };
}

/**
 * `GatewayChatModel.create(first)` with `fallbackModels` (and `fields`) on a `recordingGateway()`:
 * the model, the gateway's emulator and the chat bodies it recorded.
 */
export async function listedModel(
  first: string,
  fallbackModels: string[],
  fields: Omit<GatewayChatModelFields, 'model' | 'fallbackModels'> = {},
) {
  const recorded = await recordingGateway();
  const connection = { ...recorded.connection, fallbackModels, ...fields };
  return { ...recorded, model: await GatewayChatModel.create(first, connection) };
}

/** The model that gave an agent's answer: its first AI message's `model_name`. */
export function answeredBy(result: { messages: BaseMessage[] }): unknown {
  const answer = result.messages.find((message) => message.type === 'ai');
  return (answer?.response_metadata as { model_name?: unknown } | undefined)?.model_name;
}

/** A `community/general` model with `fields` on an emulated gateway (made with `options`). */
export async function emulatedModel(
  fields: Omit<GatewayChatModelFields, 'model'> = {},
  options?: EmulateOptions,
) {
  const gateway = await emulate(options);
  const model = new GatewayChatModel('community/general', { ...gateway.connection, ...fields });
  return { gateway, emulator: gateway.emulator, connection: gateway.connection, model };
}

/**
 * A `community/general` model with `fields` on a recording emulated gateway (see
 * `recordingGateway`): the setup most tests of what is sent start from.
 */
export async function recordingModel(
  fields: Omit<GatewayChatModelFields, 'model'> = {},
  scenario?: ScenarioInput,
) {
  const recording = await recordingGateway(scenario);
  const model = new GatewayChatModel('community/general', { ...recording.connection, ...fields });
  return { ...recording, model };
}

/** Bytes as base64, as a model passes a file in a tool call. */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Every chunk of a stream, read to its end. */
export async function chunksOf(
  stream: Promise<AsyncIterable<AIMessageChunk>>,
): Promise<AIMessageChunk[]> {
  const chunks: AIMessageChunk[] = [];
  for await (const chunk of await stream) chunks.push(chunk);
  return chunks;
}

/** A stream's chunks joined with LangChain's `concat`, as a caller of `.stream()` joins them. */
export async function joinedStream(
  stream: Promise<AsyncIterable<AIMessageChunk>>,
): Promise<AIMessageChunk> {
  let whole: AIMessageChunk | undefined;
  for await (const chunk of await stream)
    whole = whole === undefined ? chunk : concat(whole, chunk);
  if (whole === undefined) throw new Error('the stream gave no chunk');
  return whole;
}

/** A chat completion streamed as `deltas`, then its finish (`reason`); its id is `reason` too. */
export function streamOf(deltas: object[], reason = 'stop'): Response {
  const chunk = (delta: object, finish_reason: string | null) =>
    `data: ${JSON.stringify({ id: reason, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] })}\n\n`;
  const sse = deltas.map((delta) => chunk(delta, null)).join('') + chunk({}, reason);
  return new Response(`${sse}data: [DONE]\n\n`, {
    headers: { 'content-type': 'text/event-stream', 'x-service-model': 'community/general' },
  });
}

/** The client tool the scripted models call in agent tests ('weather for "Kyiv"'). */
export const weatherTool = tool(async ({ city }) => `sunny in ${city}`, {
  name: 'weather',
  description: 'Current weather in a city',
  schema: z.object({ city: z.string() }),
});

/** The structured answer the agent tests ask for ('how warm is it?'). */
export const WarmthAnswer = z.object({ city: z.string(), temperature: z.number() });

/**
 * `createAgent` on `model` with `tools` and `responseFormat: WarmthAnswer`, asked how warm it is:
 * its result, its structured response checked to be a `WarmthAnswer`.
 */
export async function askedHowWarm(model: GatewayChatModel, tools: (typeof weatherTool)[] = []) {
  const agent = createAgent({ model, tools, responseFormat: WarmthAnswer });
  const result = await agent.invoke({ messages: [{ role: 'user', content: 'how warm is it?' }] });
  expect(WarmthAnswer.parse(result.structuredResponse)).toEqual(result.structuredResponse);
  return result;
}

/** A client tool without parameters ('call now'). */
export const nowTool = tool(async () => '12:00', {
  name: 'now',
  description: 'The time now',
  schema: z.object({}),
});
