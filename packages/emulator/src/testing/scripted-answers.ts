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
