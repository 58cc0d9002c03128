// A chat stream whose body the test writes read by read (the emulator serves the catalog): what
// the client has read ahead, and when the body ends, are the test's to decide and to wait on.
import { emulate } from '@infergate/emulator/testing';
import type { ChatRequest, ChatStreamOptions, GatewayEvent } from '../src/index';
import { deferred, hi, recordingClient, untilEvents } from './helpers';

export const MODEL = 'community/general';
const encoder = new TextEncoder();
export const sse = (chunk: object) =>
  encoder.encode(`data: ${JSON.stringify({ id: 'c1', model: MODEL, ...chunk })}\n\n`);
export const content = (text: string) =>
  sse({ choices: [{ index: 0, delta: { role: 'assistant', content: text } }] });
export const FINISH = sse({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
export const USAGE = sse({
  choices: [],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});
export const DONE = encoder.encode('data: [DONE]\n\n');
export const THE_USAGE = { inputTokens: 3, outputTokens: 1, totalTokens: 4 };

/**
 * A client whose chat answers with a body the test feeds (its `first` chunk already in, for the
 * call returns its stream once the answer began). `readAll()`: resolves once the client asked for
 * more after reading everything fed so far (no read ahead but the client's own). `request`: fields
 * added to the request (`n`, say).
 */
export async function fedChatBody(
  options: ChatStreamOptions = {},
  first: Uint8Array = content('Hi'),
  request: Partial<ChatRequest> = {},
) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const waiting: Uint8Array[] = [first];
  let wake = () => {};
  let drained = deferred();
  let ended = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (waiting.length === 0 && !ended) {
          drained.resolve();
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
        const next = waiting.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
      cancel: () => {
        ended = true;
        wake();
      },
    },
    { highWaterMark: 0 },
  );
  const fetch: typeof globalThis.fetch = async (input, init) =>
    String(input).endsWith('/chat/completions')
      ? new Response(body, { headers: { 'content-type': 'text/event-stream' } })
      : gatewayFetch(input, init);
  const { client, events } = recordingClient({ connection: { ...gateway.connection, fetch } });
  const abort = new AbortController();
  const stream = await client.chatStream(
    { ...hi(MODEL), ...request },
    { ...options, signal: abort.signal },
  );
  return {
    client,
    events,
    stream,
    abort,
    feed(...chunks: Uint8Array[]) {
      waiting.push(...chunks);
      drained = deferred();
      wake();
    },
    /** The body's end, after what was fed. */
    end() {
      ended = true;
      wake();
    },
    readAll: () => drained.promise,
    /** The call's `done` events, once there is one. */
    done: async () => {
      await untilEvents(events, () => events.some((event) => event.type === 'done'));
      return events.filter((event) => event.type === 'done');
    },
    close: () => gateway.close(),
  };
}

/** Reads `stream` up to (and with) its first event of `type`. */
export async function readTo(
  stream: AsyncIterable<{ type: string }>,
  type: string,
): Promise<AsyncIterator<{ type: string }>> {
  const parts = stream[Symbol.asyncIterator]();
  for (;;) {
    const read = await parts.next();
    if (read.done) throw new Error(`the stream ended before a ${type} event`);
    if (read.value.type === type) return parts;
  }
}

export type { GatewayEvent };
