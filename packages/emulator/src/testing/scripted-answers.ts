// docs/gateway-protocol.md §4.3 (an answer is choice 0), §4.8 (a structured answer's refusal).
// Scripted chat answers of one choice, for a test whose `fetch` answers a chat the emulator does
// not (a refusal, a refusal with a call, chunks in an order the emulator never sends).
import { chatSse, type StreamChunk } from './canned-answers';

/** A chunk of choice 0: its `delta`, and its `finish` (null while the answer goes on). */
export function choiceZeroChunk(delta: object, finish: string | null = null): StreamChunk {
  return { choices: [{ index: 0, delta, finish_reason: finish }] };
}

/** The streamed answer of `model` made of `chunks`, then `[DONE]`, as an SSE response. */
export function streamedAnswer(model: string, chunks: readonly StreamChunk[]): Response {
  return new Response(chatSse(model, chunks), {
    headers: { 'content-type': 'text/event-stream' },
  });
}

/**
 * The answer of `model` whose choice 0 is the assistant `message` (its `content`, `refusal`,
 * `tool_calls`…) finishing `finish`: a whole completion, or when `stream` a stream of one delta
 * (each call given its `index`) then the finish chunk. A refusal is `{ content: null, refusal }`.
 */
export function oneMessageAnswer(
  model: string,
  message: Record<string, unknown>,
  finish: string,
  stream: boolean,
): Response {
  if (!stream) {
    const choice = { index: 0, message: { role: 'assistant', ...message }, finish_reason: finish };
    return Response.json({ id: 'c1', object: 'chat.completion', model, choices: [choice] });
  }
  const calls = (message.tool_calls as object[] | undefined)?.map((call, index) => ({
    index,
    ...call,
  }));
  const delta = { role: 'assistant', ...message, ...(calls && { tool_calls: calls }) };
  return streamedAnswer(model, [choiceZeroChunk(delta), choiceZeroChunk({}, finish)]);
}

/** What `chatsAnsweredBy`'s answers read of a chat request's body. */
export interface ScriptedChatBody {
  model: string;
  stream?: boolean;
  [field: string]: unknown;
}

/**
 * A `fetch` that answers every chat request (`…/chat/completions`) with `answer(body)`, and sends
 * every other request (the catalog read…) to `connection`'s emulator.
 */
export function chatsAnsweredBy(
  connection: { fetch: typeof fetch },
  answer: (body: ScriptedChatBody) => Response,
): typeof fetch {
  return async (input, init) => {
    if (!String(input instanceof Request ? input.url : input).endsWith('/chat/completions')) {
      return connection.fetch(input, init);
    }
    return answer(JSON.parse(String(init?.body)) as ScriptedChatBody);
  };
}

/**
 * An SSE answer whose body gives `reads` one network read each, in order, then ends (`open`: stays
 * open, as a server that keeps it after its last event). Each read is asked for (a pull), so the
 * reader sees the split as the network would cut it.
 */
export function sseReadByRead(
  reads: readonly string[],
  options: { open?: boolean } = {},
): Response {
  const pending = reads.map((read) => new TextEncoder().encode(read));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = pending.shift();
      if (next !== undefined) controller.enqueue(next);
      else if (!options.open) controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/**
 * The reads a body of `text` may come in: whole, one event a read, and cut every `step` bytes of
 * `steps` (through events, their JSON and the blank line ending them): for a test that the same
 * bytes give one answer however the network splits them.
 */
export function readSplits(text: string, steps: readonly number[] = [1, 7, 64]): string[][] {
  const cut = (step: number) => {
    const reads: string[] = [];
    for (let at = 0; at < text.length; at += step) reads.push(text.slice(at, at + step));
    return reads;
  };
  return [[text], text.split(/(?<=\n\n)/), ...steps.map(cut)];
}
