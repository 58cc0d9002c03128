/**
 * Stream bytes the anchors read (`streamText` with `@ai-sdk/openai-compatible`, `ChatOpenAI.stream`),
 * read through the adapters' own entry points: `streamText` with `@infergate/ai-sdk` and
 * `GatewayChatModel.stream`, steered (a stall limit set) and not. The catalog is the emulator's;
 * every chat completion is answered with the bytes, in the reads given.
 */
import { createGateway } from '@infergate/ai-sdk';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { GatewayChatModel } from '@infergate/langchain';
import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { chatsAnswered, readsAnswer } from './answering';

const BASE_URL = 'https://stream-bytes.test/v1';
const API_KEY = DEFAULT_KEYS.full;
const MODEL = 'community/general';
const STEERING = [{}, { firstChunkTimeoutMs: 60_000 }, { chunkTimeoutMs: 60_000 }];

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', model: MODEL, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const ROLE = chunk({ role: 'assistant', content: '' });
const STOP = `${chunk({}, 'stop')}data: [DONE]\n\n`;

/** A line in 64 KiB reads, as a socket gives a long one. */
const socketReads = (line: string) =>
  Array.from({ length: Math.ceil(line.length / 65536) }, (_, i) =>
    line.slice(i * 65536, (i + 1) * 65536),
  );

/** Every chat completion answered with `reads`, one at a time, as `contentType`. */
const answering = (reads: string[], contentType = 'text/event-stream') =>
  chatsAnswered(() => readsAnswer(reads, { 'content-type': contentType }));

async function viaStreamText(fetch: typeof globalThis.fetch, steering: object): Promise<string> {
  let failure: unknown;
  const model = createGateway({ baseURL: BASE_URL, apiKey: API_KEY, fetch, ...steering })(MODEL);
  const result = streamText({
    model,
    prompt: 'hi',
    onError: ({ error }) => {
      failure = error;
    },
  });
  await result.consumeStream();
  if (failure) throw failure;
  expect(await result.finishReason).toBe('stop');
  return result.text;
}

async function viaStream(fetch: typeof globalThis.fetch, steering: object): Promise<string> {
  const model = new GatewayChatModel(MODEL, {
    baseURL: BASE_URL,
    apiKey: API_KEY,
    fetch,
    ...steering,
  });
  let text = '';
  for await (const piece of await model.stream('hi')) text += piece.text;
  return text;
}

async function expectEveryReader(fetch: typeof globalThis.fetch, text: string): Promise<void> {
  for (const steering of STEERING) {
    const label = JSON.stringify(steering);
    expect(await viaStreamText(fetch, steering), `streamText ${label}`).toBe(text);
    expect(await viaStream(fetch, steering), `GatewayChatModel.stream ${label}`).toBe(text);
  }
}

describe('stream bytes the anchors read, through the adapters', () => {
  it('a first content in one SSE line over 1 MiB, stall limits set or not', async () => {
    const long = 'x'.repeat(1.5 * 1024 * 1024);
    await expectEveryReader(
      answering([ROLE, ...socketReads(chunk({ content: long })), STOP]),
      long,
    );
  });

  it('an SSE stream labelled application/json', async () => {
    const reads = [ROLE, chunk({ content: 'Hé' }), chunk({ content: 'llo' }), STOP];
    await expectEveryReader(answering(reads, 'application/json; charset=utf-8'), 'Héllo');
  });

  it('an empty data event (a keep-alive) first and between contents', async () => {
    const reads = [
      'data:\n\n',
      ROLE,
      chunk({ content: 'Hé' }),
      'data: \n\n',
      chunk({ content: 'llo' }),
      STOP,
    ];
    await expectEveryReader(answering(reads), 'Héllo');
  });
});
