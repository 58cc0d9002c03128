/**
 * The `fetch` a cross-check hands the anchors and ours: the emulator's catalog, every chat
 * completion answered with bytes the test gives (an emulator would never send them).
 */
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { GatewayChatModel, type GatewayChatModelFields } from '@infergate/langchain';
import type { AIMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';

/** The emulator for the catalog; every chat completion answered by `answer(request)`. */
export function chatsAnswered(answer: (request: Request) => Response | Promise<Response>) {
  const emulator = createEmulator();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return emulator.fetch(request);
    return answer(request);
  };
  return fetch;
}

/** A 200 stream of `reads`, each handed to the client as one chunk of bytes. */
export function readsAnswer(
  reads: readonly (string | Uint8Array)[],
  headers: Record<string, string> = { 'content-type': 'text/event-stream' },
): Response {
  const queue = reads.map((read) =>
    typeof read === 'string' ? new TextEncoder().encode(read) : read,
  );
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
  return new Response(body, { status: 200, headers });
}

/** The model a forced tool call answers as. */
export const TOOLS_MODEL = 'community/tools';
/** The schema a forced tool call answers (`{"city":"Oslo"}` fits it). */
export const PLACE = z.object({ city: z.string() });
const USAGE = { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 };
const HEAD = { id: 'chatcmpl-raw', created: 1, model: TOOLS_MODEL };

type Body = {
  stream?: boolean;
  tool_choice?: { function?: { name: string } };
  tools?: { function: { name: string } }[];
};

/** Completion chunks (`data:` events), then `[DONE]`. */
function sse(chunks: object[]): string {
  const events = chunks.map(
    (chunk) =>
      `data: ${JSON.stringify({ ...HEAD, object: 'chat.completion.chunk', ...chunk })}\n\n`,
  );
  return `${events.join('')}data: [DONE]\n\n`;
}

/**
 * Every chat answered with one call (`call_1`) of the tool asked for, its arguments `args`, finish
 * `tool_calls`, usage 7 + 5: whole, or streamed (the call's head, its arguments, the finish, usage).
 */
export function forcedToolCalls(args: string): typeof fetch {
  return chatsAnswered(async (request) => {
    const body = (await request.json()) as Body;
    const name = body.tool_choice?.function?.name ?? body.tools?.[0]?.function.name ?? 'answer';
    const headers = { 'x-service-model': TOOLS_MODEL };
    if (!body.stream) {
      const call = { id: 'call_1', type: 'function', function: { name, arguments: args } };
      const message = { role: 'assistant', content: null, tool_calls: [call] };
      const choices = [{ index: 0, message, finish_reason: 'tool_calls' }];
      const completion = { ...HEAD, object: 'chat.completion', choices, usage: USAGE };
      return Response.json(completion, { headers });
    }
    const first = { index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } };
    const piece = { index: 0, function: { arguments: args } };
    const text = sse([
      { choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [first] } }] },
      { choices: [{ index: 0, delta: { tool_calls: [piece] } }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      { choices: [], usage: USAGE },
    ]);
    return new Response(text, { headers: { ...headers, 'content-type': 'text/event-stream' } });
  });
}

/** What `withStructuredOutput(schema, { includeRaw: true })` gives. */
export type RawResult = { raw: AIMessage; parsed: unknown; parsingError?: unknown };
type Structured = {
  invoke(input: string, options?: object): Promise<RawResult>;
  stream(input: string): Promise<AsyncIterable<RawResult>>;
};

/** `model.withStructuredOutput(schema, config)`, for ChatOpenAI and ours alike. */
export const structuredOf = (
  model: { withStructuredOutput: unknown },
  schema: unknown,
  config: object,
) =>
  (model.withStructuredOutput as (schema: unknown, config: object) => Structured)(schema, config);

/** The anchor: `ChatOpenAI` on `TOOLS_MODEL`, its requests through `fetch`. */
export const chatOpenAIOn = (baseURL: string, fetch: typeof globalThis.fetch) =>
  new ChatOpenAI({
    model: TOOLS_MODEL,
    apiKey: DEFAULT_KEYS.full,
    configuration: { baseURL, fetch },
  });

/** Ours: `GatewayChatModel` on `TOOLS_MODEL`, its requests through `fetch`. */
export const gatewayChatModelOn = (
  baseURL: string,
  fetch: typeof globalThis.fetch,
  fields: Omit<GatewayChatModelFields, 'model'> = {},
) => new GatewayChatModel(TOOLS_MODEL, { baseURL, apiKey: DEFAULT_KEYS.full, fetch, ...fields });
