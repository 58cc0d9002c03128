import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src';
import { caught, hi } from './helpers';

// docs/gateway-protocol.md §5.3, §5.5: a plain chatStream reads ahead to its first content (text,
// reasoning, a tool-call piece, a refusal), as a steered one does, so an error event before any
// content is the attempt's failure however the bytes split across reads: a role-only chunk read
// on its own, then the error in a later read, is retried (a retryable code) or rejects
// `chatStream` (another), as the same bytes in one read are. Each read here is pulled by the
// client: the stub answers a read only when asked, never on a clock.
const MODEL = 'community/streamer';
const encoded = (text: string) => new TextEncoder().encode(text);
const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const chunk = (delta: Record<string, unknown>) =>
  event({
    id: 'c1',
    object: 'chat.completion.chunk',
    model: MODEL,
    choices: [{ index: 0, delta, finish_reason: null }],
  });
const ROLE = chunk({ role: 'assistant', content: '' });
const failure = (code: string) => event({ error: { code, message: `${code} before content` } });

/** A body whose reads hand out `reads` one each; past them it waits for `release`. */
function readByRead(reads: string[], waitAfter?: Promise<void>) {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = reads.shift();
      if (next !== undefined) return controller.enqueue(encoded(next));
      await waitAfter;
      controller.close();
    },
  });
}

/** A client whose first chat request is answered by `body`, the rest by the emulator. */
async function firstAnsweredBy(body: () => ReadableStream<Uint8Array>, maxRetries = 0) {
  const gateway = await emulate();
  const sent: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (init?.method !== 'POST') return gateway.connection.fetch(input, init);
    sent.push(String(input));
    if (sent.length > 1) return gateway.connection.fetch(input, init);
    const headers = { 'content-type': 'text/event-stream', 'retry-after': '0' };
    return new Response(body(), { headers });
  };
  const events: string[] = [];
  const client = createGatewayClient({
    ...gateway.connection,
    fetch,
    maxRetries,
    retryBaseDelayMs: 0,
    onEvent: (e) => {
      if (e.operation === 'chat' && e.type === 'response') events.push(`response:${e.ok}`);
    },
  });
  return { client, sent, events };
}

describe('a plain chatStream: a role-only chunk alone in a read, then an error event', () => {
  it('a retryable error (model_busy) is retried, and the next answer streams', async () => {
    const { client, sent } = await firstAnsweredBy(
      () => readByRead([ROLE, failure('model_busy')]),
      1,
    );
    const stream = await client.chatStream(hi(MODEL));
    let text = '';
    for await (const part of stream) if (part.type === 'text-delta') text += part.delta;
    expect(text).not.toBe('');
    expect(sent).toHaveLength(2);
  });

  it('another error rejects chatStream itself, the attempt failed, sent once', async () => {
    const { client, sent, events } = await firstAnsweredBy(
      () => readByRead([ROLE, failure('invalid_request_error')]),
      2,
    );
    const error = await caught(() => client.chatStream(hi(MODEL)));
    expect(error).toMatchObject({ code: 'invalid_request_error', status: 200 });
    expect(sent).toHaveLength(1);
    expect(events).toEqual(['response:false']);
  });
});

describe('every kind of content ends the wait: chatStream opens with the rest unsent', () => {
  const toolPiece = {
    tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '' } }],
  };
  it.each([
    ['text', { content: 'Hel' }, 'text-delta'],
    ['reasoning', { reasoning_content: 'thinking' }, 'reasoning-delta'],
    ['a tool-call piece', toolPiece, 'tool-call-delta'],
    ['a refusal', { refusal: 'No.' }, 'text-delta'],
  ])('%s', async (_kind, delta, type) => {
    let release: () => void = () => {};
    const rest = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { client } = await firstAnsweredBy(() => readByRead([ROLE, chunk(delta)], rest));
    const stream = await client.chatStream(hi(MODEL));
    release();
    const types: string[] = [];
    await caught(async () => {
      for await (const part of stream) types.push(part.type);
    });
    expect(types).toContain(type);
  });
});
