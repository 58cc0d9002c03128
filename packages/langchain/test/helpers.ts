import { DEFAULT_KEYS, type Emulator, type ScenarioInput } from '@infergate/emulator';
import { type EmulatedGateway, emulate, type GatewayConnection } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { vi } from 'vitest';
import { z } from 'zod';

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

/** Node's own `setImmediate`, taken before a test fakes timers. */
const nextTurn = globalThis.setImmediate;

/**
 * Moves the faked clock by `ms`, lets one real event-loop turn run (an aborted fetch rejects on
 * it), then gives what `promise` settled to; 'pending' when it has not.
 */
export async function settledAfter<T>(ms: number, promise: Promise<T>): Promise<T | 'pending'> {
  await vi.advanceTimersByTimeAsync(ms);
  const pending = new Promise<'pending'>((resolve) => nextTurn(() => resolve('pending')));
  return Promise.race([promise, pending]);
}
