import { choiceZeroChunk, streamedAnswer } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../src';
import { isRetryableFailure } from '../src/errors/retryable-failure';
import {
  type ChatStub,
  caught,
  driveClock,
  hi,
  only,
  settledAfter,
  streamedReply,
  stubbedChatClient,
} from './helpers';

// docs/gateway-protocol.md §5.3, §10.5: a failure a 2xx reports instead of any content — a whole
// body that is an error object, a stream answered with one, a stream whose first event is one,
// plain or steered — is read by one rule: retried as the same code answered with a status, its
// Retry-After honoured as on a 429 (one longer than `maxRetryAfterMs`: not retried), a steered
// call's later rounds asking the model again. A whole error object not retried ends the call's
// events as failed. The emulator answers; a stub answers chosen requests with the 200 failures.

afterEach(() => {
  vi.useRealTimers();
});

const MODEL = 'community/streamer';
const OTHER = 'community/tools';
const errorObject = (code: string) =>
  JSON.stringify({ error: { code, message: `${code} (in a 200)` } });
const sseError = (code: string, headers: Record<string, string> = {}) =>
  new Response(`: processing\n\ndata: ${errorObject(code)}\n\n`, {
    headers: { 'content-type': 'text/event-stream', ...headers },
  });
const jsonError = (code: string, headers: Record<string, string> = {}) =>
  new Response(errorObject(code), { headers: { 'content-type': 'application/json', ...headers } });

/** The first `count` requests answered by `answer`. */
function first(count: number, answer: () => Response): ChatStub {
  let left = count;
  return () => (left-- > 0 ? answer() : undefined);
}

const streamedText = (client: GatewayClient, options = {}) => streamedReply(client, MODEL, options);

describe("a stream's first event that is a failure honours the answer's Retry-After", () => {
  it('waits the Retry-After before sending again, as a 429 does (plain chatStream)', async () => {
    let busy = 0;
    const stub = () => (busy-- > 0 ? sseError('model_busy', { 'retry-after': '2' }) : undefined);
    const { client, sent, events } = await stubbedChatClient(stub);
    // (A first stream loads its lazy parts, which the driven clock cannot wait for.)
    await streamedText(client);
    sent.length = 0;
    events.length = 0;
    busy = 1;
    driveClock();
    const { text } = await settledAfter(5_000, streamedText(client));
    expect(text).not.toBe('');
    expect(sent).toEqual([MODEL, MODEL]);
    expect(only(events, 'retry').map((retry) => retry.delayMs)).toEqual([2000]);
  });

  it('is not retried when its Retry-After is longer than maxRetryAfterMs', async () => {
    const busy = () => sseError('model_busy', { 'retry-after': '30' });
    const { client, sent } = await stubbedChatClient(first(1, busy), { maxRetryAfterMs: 5_000 });
    const error = await caught(() => streamedText(client));
    expect(error).toMatchObject({ code: 'model_busy', isRetryable: false, retryAfterMs: 30_000 });
    expect(sent).toEqual([MODEL]);
  });
});

describe('a steered stream whose first event is a retryable failure', () => {
  it('asks every model again in later rounds, as the same failure as a status (503)', async () => {
    const { client, sent } = await stubbedChatClient(() => sseError('provider_unavailable'));
    const error = await caught(() => streamedText(client, { fallbackModels: [OTHER] }));
    expect(error.code).toBe('provider_unavailable');
    expect(sent).toEqual([MODEL, OTHER, MODEL, OTHER, MODEL, OTHER]);
  });
});

describe('a stream request answered with a 200 JSON error object', () => {
  it('plain chatStream: model_busy is retried; the answer is streamed', async () => {
    const { client, sent } = await stubbedChatClient(first(1, () => jsonError('model_busy')));
    const { text } = await streamedText(client);
    expect(text).not.toBe('');
    expect(sent).toEqual([MODEL, MODEL]);
  });

  it('steered chatStream: model_busy moves to the next model', async () => {
    const stub: ChatStub = (model) => (model === MODEL ? jsonError('model_busy') : undefined);
    const { client, sent } = await stubbedChatClient(stub);
    const { result } = await streamedText(client, { fallbackModels: [OTHER] });
    expect(result.model).toBe(OTHER);
    expect(sent).toEqual([MODEL, OTHER]);
  });

  it('a non-retryable code still fails the stream, sent once', async () => {
    const { client, sent } = await stubbedChatClient(() => jsonError('invalid_request_error'));
    const error = await caught(() => streamedText(client));
    expect(error).toMatchObject({ status: 200, isRetryable: false });
    expect(sent).toEqual([MODEL]);
  });
});

describe('a whole 200 error object not labelled JSON', () => {
  it.each([
    ['no content type', undefined],
    ['text/plain', 'text/plain; charset=utf-8'],
  ])('%s: model_busy is retried as a JSON-labelled one is', async (_name, type) => {
    const headers = type === undefined ? undefined : { 'content-type': type };
    const busy = () => {
      const response = new Response(errorObject('model_busy'), { headers });
      if (type === undefined) response.headers.delete('content-type');
      return response;
    };
    const { client, sent } = await stubbedChatClient(first(1, busy));
    const result = await client.chat(hi(MODEL));
    expect(result.answer.text).not.toBe('');
    expect(sent).toEqual([MODEL, MODEL]);
  });
});

describe('a 2xx failure whose Retry-After is longer than maxRetryAfterMs', () => {
  it('is not retryable, as the same answer with a 429 is not', () => {
    const failure = { code: 'model_busy', status: 200, retryAfterMs: 120_000 };
    const context = { reportedInstead: true, maxRetryAfterMs: 5_000 };
    expect(isRetryableFailure(failure, context)).toBe(false);
    expect(isRetryableFailure({ ...failure, status: 429 }, context)).toBe(false);
    expect(isRetryableFailure({ ...failure, retryAfterMs: 1_000 }, context)).toBe(true);
  });

  it('chat(): the whole answer model_busy fails once, isRetryable false', async () => {
    const busy = () => jsonError('model_busy', { 'retry-after': '120' });
    const { client, sent } = await stubbedChatClient(busy, { maxRetryAfterMs: 5_000 });
    const error = await caught(() => client.chat(hi(MODEL)));
    expect(error).toMatchObject({ code: 'model_busy', retryAfterMs: 120_000, isRetryable: false });
    expect(sent).toEqual([MODEL]);
  });
});

describe('a whole 200 error object that is not retried', () => {
  it("ends the call's events as failed (response and done not ok), as chat() fails", async () => {
    const { client, events } = await stubbedChatClient(() => jsonError('invalid_request_error'));
    const error = await caught(() => client.chat(hi(MODEL)));
    expect(error.status).toBe(200);
    const [response] = only(events, 'response');
    expect(response).toMatchObject({ ok: false, status: 200, code: error.code });
    const [done] = only(events, 'done');
    expect(done).toMatchObject({ ok: false, error: { code: error.code, status: 200 } });
  });
});

describe('a finish repeated with another reason (the usage chunk)', () => {
  it("keeps the choice's first reason: the finish event and the result agree", async () => {
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    const stream = () =>
      streamedAnswer(MODEL, [
        choiceZeroChunk({ role: 'assistant', content: 'hi' }),
        choiceZeroChunk({}, 'stop'),
        { ...choiceZeroChunk({}, 'length'), usage },
      ]);
    const { client } = await stubbedChatClient(stream);
    const answer = await client.chatStream(hi(MODEL));
    const finishes: string[] = [];
    for await (const event of answer) if (event.type === 'finish') finishes.push(event.reason);
    const result = await answer.result();
    expect(finishes).toEqual(['stop']);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ total_tokens: 2 });
  });
});
