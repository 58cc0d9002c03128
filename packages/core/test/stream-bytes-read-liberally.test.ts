import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { createGatewayClient } from '../src/index';
import { hi } from './helpers';

// Streams whose exact bytes the anchors (`@ai-sdk/openai-compatible`, `ChatOpenAI`) read: ours
// must too, steered or not. (The emulator serves the catalog; a stub answers the chat with the
// bytes, in the pieces given.)
const MODEL = 'community/general';
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', model: MODEL, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const ROLE = chunk({ role: 'assistant', content: '' });
const STOP = `${chunk({}, 'stop')}data: [DONE]\n\n`;
const STEERED: GatewayClientOptions[] = [
  { firstChunkTimeoutMs: 60_000 },
  { chunkTimeoutMs: 60_000 },
];

async function answering(pieces: string[], contentType = 'text/event-stream') {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const sent = { chats: 0 };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (!String(input).endsWith('/chat/completions')) return gatewayFetch(input, init);
    sent.chats++;
    // One piece a read, as the network gives them.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
        controller.close();
      },
    });
    return new Response(body, { headers: { 'content-type': contentType } });
  };
  const client = (options: GatewayClientOptions = {}) =>
    createGatewayClient({ ...gateway.connection, retryBaseDelayMs: 0, fetch, ...options });
  return { client, sent };
}

/** A long line in 64 KiB reads, as a socket gives it. */
const socketReads = (line: string) =>
  Array.from({ length: Math.ceil(line.length / 65536) }, (_, i) =>
    line.slice(i * 65536, (i + 1) * 65536),
  );

async function textOf(client: ReturnType<typeof createGatewayClient>): Promise<string> {
  return (await (await client.chatStream(hi(MODEL))).result()).text;
}

describe('stream bytes the anchors read', () => {
  it('a first content in one SSE line over 1 MiB reaches a steered call whole (stall limits set)', async () => {
    const long = 'x'.repeat(1.5 * 1024 * 1024);
    const { client } = await answering([ROLE, ...socketReads(chunk({ content: long })), STOP]);
    for (const options of [{}, ...STEERED]) expect(await textOf(client(options))).toBe(long);
  });

  it('whole events without content past 1 Mi characters still stop a steered stream', async () => {
    const comment = `: ${'x'.repeat(64 * 1024)}\n\n`;
    const { client } = await answering([
      ...Array(20).fill(comment),
      chunk({ content: 'hi' }),
      STOP,
    ]);
    await expect(textOf(client(STEERED[0]))).rejects.toMatchObject({
      code: 'provider_protocol_error',
      message: expect.stringMatching(/characters of events without any content/),
    });
  });

  it.each(['application/json', 'application/json; charset=utf-8'])(
    'an SSE stream labelled %s is read as a stream',
    async (type) => {
      const { client } = await answering(
        [
          '\n',
          'da',
          `ta${ROLE.slice(4)}`,
          chunk({ content: 'Hé' }),
          chunk({ content: 'llo' }),
          STOP,
        ],
        type,
      );
      for (const options of [{}, ...STEERED]) expect(await textOf(client(options))).toBe('Héllo');
    },
  );

  it('a JSON body labelled JSON is still not a stream', async () => {
    const { client } = await answering(['  {"choices"', ':[]}'], 'application/json');
    await expect(textOf(client({ maxRetries: 0 }))).rejects.toMatchObject({
      code: 'invalid_response',
      body: '  {"choices":[]}',
    });
  });

  it.each([
    ['first', ['data:\n\n', ROLE, chunk({ content: 'Hé' }), chunk({ content: 'llo' }), STOP]],
    [
      'between contents',
      [ROLE, chunk({ content: 'Hé' }), 'data: \n\n', chunk({ content: 'llo' }), STOP],
    ],
  ])('an empty data event (a keep-alive) %s is skipped', async (_where, pieces) => {
    const { client } = await answering(pieces);
    for (const options of [{}, ...STEERED]) expect(await textOf(client(options))).toBe('Héllo');
  });

  it('data lines no blank line ends fail as stream_incomplete, steered or not, sent once', async () => {
    // Every event ends with one LF: per SSE the stream is one event, never dispatched.
    const body = [ROLE, chunk({ content: 'Hi' }), STOP].join('').replaceAll('\n\n', '\n');
    const { client, sent } = await answering([body]);
    for (const options of [{}, ...STEERED]) {
      const before = sent.chats;
      const failure = await textOf(client(options)).catch((error: unknown) => error);
      expect(failure).toMatchObject({
        code: 'stream_incomplete',
        message: expect.stringMatching(/characters in an event no blank line ended/),
      });
      expect(sent.chats - before).toBe(1);
    }
  });

  it("the SSE line limit's response_too_large names the requested and served model", async () => {
    const { client } = await answering([
      ROLE,
      ...socketReads(`data: {"x":"${'y'.repeat(9 * 1024 * 1024)}"}\n\n`),
    ]);
    const stream = await client({ maxRetries: 0 }).chatStream(hi(MODEL));
    await expect(stream.result()).rejects.toMatchObject({
      code: 'response_too_large',
      requestedModel: MODEL,
      servedModel: MODEL,
    });
  });
});
