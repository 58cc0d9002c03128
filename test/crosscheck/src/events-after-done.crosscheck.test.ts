/**
 * A stream's edges the anchors read (docs/gateway-protocol.md §5.2): a usage or a finish sent after
 * `data: [DONE]` (`@ai-sdk/openai-compatible` reads every event until the body ends), and a last
 * event the body ends without its blank line (openai-node, under `ChatOpenAI`, reads it). Ours
 * must return at least what each anchor returns: through `streamText` with `@infergate/ai-sdk` and
 * `GatewayChatModel.stream`, steered (a stall limit set) and not. The catalog is the emulator's;
 * every chat completion is answered with the bytes, in the reads given.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createGateway } from '@infergate/ai-sdk';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { GatewayChatModel } from '@infergate/langchain';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { ChatOpenAI } from '@langchain/openai';
import { type LanguageModel, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { chatsAnswered, readsAnswer } from './answering';

const BASE_URL = 'https://after-done.test/v1';
const API_KEY = DEFAULT_KEYS.full;
const MODEL = 'community/general';
const STEERING = [{}, { chunkTimeoutMs: 60_000 }];
const USAGE = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };

const data = (choices: object[], extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1700000000, model: MODEL, choices, ...extra })}`;
const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
  `${data([{ index: 0, delta, finish_reason: finish }], extra)}\n\n`;
const ROLE = chunk({ role: 'assistant', content: '' });
const HELLO = chunk({ content: 'Hello' });
const DONE = 'data: [DONE]\n\n';

/** Every chat completion answered with `reads`, one at a time. */
const answering = (reads: string[]) => chatsAnswered(() => readsAnswer(reads));

interface Read {
  text: string;
  finishReason?: string;
  totalTokens?: number;
}

async function viaStreamText(model: LanguageModel): Promise<Read> {
  let failure: unknown;
  const result = streamText({ model, prompt: 'hi', onError: ({ error }) => (failure = error) });
  await result.consumeStream();
  if (failure) throw failure;
  const usage = await result.usage;
  return {
    text: await result.text,
    finishReason: await result.finishReason,
    totalTokens: usage.totalTokens,
  };
}

async function viaStream(model: GatewayChatModel | ChatOpenAI): Promise<Read> {
  let whole: AIMessageChunk | undefined;
  for await (const piece of await model.stream('hi')) whole = whole ? concat(whole, piece) : piece;
  return {
    text: whole?.text ?? '',
    finishReason: whole?.response_metadata.finish_reason as string | undefined,
    totalTokens: whole?.usage_metadata?.total_tokens,
  };
}

/** `@ai-sdk/openai-compatible`'s `streamText` of the bytes. */
function anchorAi(fetch: typeof globalThis.fetch): Promise<Read> {
  const ai = createOpenAICompatible({
    name: 'anchor',
    baseURL: BASE_URL,
    apiKey: API_KEY,
    fetch,
    includeUsage: true,
  });
  return viaStreamText(ai(MODEL));
}

/** `ChatOpenAI.stream` of the bytes. */
function anchorLc(fetch: typeof globalThis.fetch): Promise<Read> {
  const configuration = { baseURL: BASE_URL, fetch };
  return viaStream(
    new ChatOpenAI({ model: MODEL, apiKey: API_KEY, configuration, streamUsage: true }),
  );
}

/** Every reader of ours returns `expected`, steered and not. */
async function expectOurs(reads: string[], expected: Read): Promise<void> {
  const fetch = answering(reads);
  for (const steering of STEERING) {
    const label = JSON.stringify(steering);
    const model = createGateway({ baseURL: BASE_URL, apiKey: API_KEY, fetch, ...steering })(MODEL);
    expect(await viaStreamText(model), `streamText ${label}`).toEqual(expected);
    const lc = new GatewayChatModel(MODEL, {
      baseURL: BASE_URL,
      apiKey: API_KEY,
      fetch,
      ...steering,
    });
    expect(await viaStream(lc), `GatewayChatModel.stream ${label}`).toEqual(expected);
  }
}

const WHOLE: Read = { text: 'Hello', finishReason: 'stop', totalTokens: 4 };

describe('events after [DONE]', () => {
  const usageAfterDone = [
    ROLE,
    HELLO,
    chunk({}, 'stop'),
    DONE,
    `${data([], { usage: USAGE })}\n\n`,
  ];
  const finishAfterDone = [ROLE, HELLO, DONE, chunk({}, 'stop', { usage: USAGE })];

  it('the usage after [DONE]: the anchor AI SDK reads it, so do ours', async () => {
    expect(await anchorAi(answering(usageAfterDone))).toEqual(WHOLE);
    await expectOurs(usageAfterDone, WHOLE);
  });

  it('the finish (with its usage) after [DONE]: the whole answer, as the anchor AI SDK reads it', async () => {
    expect(await anchorAi(answering(finishAfterDone))).toEqual(WHOLE);
    await expectOurs(finishAfterDone, WHOLE);
  });
});

describe('the last event without its blank line', () => {
  it('the finish chunk (with its usage) as the tail: ChatOpenAI reads the whole answer, so do ours', async () => {
    const reads = [
      ROLE,
      HELLO,
      data([{ index: 0, delta: {}, finish_reason: 'stop' }], { usage: USAGE }),
    ];
    expect(await anchorLc(answering(reads))).toEqual(WHOLE);
    await expectOurs(reads, WHOLE);
  });

  it('a usage-only tail after the finish: ChatOpenAI has the usage, so do ours', async () => {
    const reads = [ROLE, HELLO, chunk({}, 'stop'), data([], { usage: USAGE })];
    expect(await anchorLc(answering(reads))).toEqual(WHOLE);
    await expectOurs(reads, WHOLE);
  });
});
