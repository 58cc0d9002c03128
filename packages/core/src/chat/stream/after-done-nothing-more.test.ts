// docs/gateway-protocol.md §5.2: after `[DONE]` a stream reads on only for what may still be
// missing (a usage, a choice's finish): once it has both it ends at once, a body kept open after
// `[DONE]` not waited on; content after the finish and `[DONE]`, or a new choice, is dropped (a
// begun choice's text before its finish is read: text-after-done.test.ts); and once `[DONE]`
// and the finish came, a failure reading what follows (its size) ends the answer as it is.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { driveClock, settledAfter, withCatalog } from '../../../test/helpers';
import { createGatewayClient } from '../../client/client';
import type { ChatStreamEvent } from '../../protocol/chat-result-types';
import { ChatStreamDecoder } from './chat-stream-decoder';

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices, ...extra });
const event = (data: string) => `data: ${data}\n\n`;
const HELLO = event(chunk([{ index: 0, delta: { role: 'assistant', content: 'Hello' } }]));
const FINISH = event(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
const USAGE = event(
  chunk([], { usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }),
);
const DONE = 'data: [DONE]\n\n';

/** A client whose answer is `pieces`, its body never closed; `more` enqueues later bytes. */
function serving(pieces: string[], options: { maxResponseBytes?: number } = {}) {
  const bytes = new TextEncoder();
  let body: ReadableStreamDefaultController<Uint8Array> | undefined;
  const client = createGatewayClient({
    baseURL: `https://after-done-${Math.random()}.test`,
    apiKey: 'k',
    maxRetries: 0,
    ...options,
    fetch: withCatalog(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              body = controller;
              for (const piece of pieces) controller.enqueue(bytes.encode(piece));
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    ),
  });
  const more = (piece: string) => body?.enqueue(bytes.encode(piece));
  return Object.assign(client, { more });
}

const ask = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

afterEach(() => {
  vi.useRealTimers();
});

describe('a body kept open after [DONE]', () => {
  it('ends the stream at once when the finish and the usage came before [DONE]', async () => {
    driveClock();
    const stream = await serving([HELLO, FINISH, USAGE, DONE]).chatStream(ask);
    // (No timer moved: the read-on grace after [DONE] is not waited.)
    const result = await settledAfter(0, stream.result());
    expect(result.text).toBe('Hello');
    expect(result.usage?.total_tokens).toBe(4);
  });

  it('ends it at once when the usage comes after [DONE], the body still open', async () => {
    driveClock();
    const stream = await serving([HELLO, FINISH, DONE, USAGE]).chatStream(ask);
    const result = await settledAfter(0, stream.result());
    expect(result.usage?.total_tokens).toBe(4);
  });
});

describe('bytes after [DONE] and the finish', () => {
  it('passing maxResponseBytes end the answer as it is', async () => {
    const padding = `: ${'x'.repeat(6000)}\n\n`;
    const client = serving([HELLO + FINISH + DONE], { maxResponseBytes: 4000 });
    const stream = await client.chatStream(ask);
    const events: ChatStreamEvent[] = [];
    for await (const e of stream) {
      events.push(e);
      // ([DONE] is decoded: the stream reads on, for a usage, and gets the padding.)
      if (e.type === 'finish') client.more(padding);
    }
    expect(events.map((e) => e.type)).toEqual(['metadata', 'role', 'text-delta', 'finish']);
    expect((await stream.result()).text).toBe('Hello');
  });
});

/** The events `reads` decode to, then the input ended. */
function decoded(reads: readonly string[], choices?: number) {
  const decoder = new ChatStreamDecoder({}, choices);
  for (const read of reads) decoder.feed(read);
  decoder.end();
  const events: ChatStreamEvent[] = [];
  for (let e = decoder.take(); e !== undefined; e = decoder.take()) events.push(e);
  return { result: decoder.result(), types: events.map((e) => e.type) };
}

describe('content after [DONE]', () => {
  it('text sent after the finish and [DONE] is dropped; the usage is read', () => {
    const late = event(chunk([{ index: 0, delta: { content: ' INJECTED' } }]));
    const { result, types } = decoded([HELLO, FINISH, DONE, late, USAGE]);
    expect(result.text).toBe('Hello');
    expect(types).toEqual(['metadata', 'role', 'text-delta', 'finish', 'usage']);
  });

  it('a new choice after [DONE] is dropped; a begun choice still gets its late finish', () => {
    const other = event(chunk([{ index: 1, delta: { content: 'Other' }, finish_reason: 'stop' }]));
    const { result, types } = decoded([HELLO, DONE, other, FINISH], 2);
    expect(result.text).toBe('Hello');
    expect(result.finishReason).toBe('stop');
    expect(types).toEqual(['metadata', 'role', 'text-delta', 'finish']);
  });

  it('reasoning and tool-call pieces after [DONE] are dropped', () => {
    const late = event(
      chunk([
        {
          index: 0,
          delta: {
            reasoning_content: 'hm',
            tool_calls: [{ index: 0, id: 't', function: { name: 'f', arguments: '{}' } }],
          },
        },
      ]),
    );
    const { result, types } = decoded([HELLO, FINISH, DONE, late]);
    expect(result.toolCalls ?? []).toEqual([]);
    expect(result.reasoning ?? '').toBe('');
    expect(types).toEqual(['metadata', 'role', 'text-delta', 'finish']);
  });
});
