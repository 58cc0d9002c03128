/**
 * A one-choice request streamed back with its lone choice at `index: 1` (docs/gateway-protocol.md
 * §4.3): `@ai-sdk/openai-compatible`'s `streamText` and `ChatOpenAI.stream` return its text, and
 * the same bytes whole are read fine; ours, through `streamText` with `@infergate/ai-sdk` and
 * `GatewayChatModel.stream`, return it too. The catalog is the emulator's.
 */
import { createGateway } from '@infergate/ai-sdk';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { GatewayChatModel } from '@infergate/langchain';
import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { chatsAnswered } from './answering';

const BASE_URL = 'https://lone-choice.test/v1';
const API_KEY = DEFAULT_KEYS.full;
const MODEL = 'community/general';

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices: [{ index: 1, delta, finish_reason: finish }] })}\n\n`;
const BODY = `${chunk({ role: 'assistant', content: '' })}${chunk({ content: 'Hello' })}${chunk({}, 'stop')}data: [DONE]\n\n`;

const answering = () =>
  chatsAnswered(() => new Response(BODY, { headers: { 'content-type': 'text/event-stream' } }));

describe('a lone streamed choice of index 1', () => {
  it('streamText returns its text and finish', async () => {
    const model = createGateway({ baseURL: BASE_URL, apiKey: API_KEY, fetch: answering() })(MODEL);
    let failure: unknown;
    const result = streamText({ model, prompt: 'hi', onError: ({ error }) => (failure = error) });
    await result.consumeStream();
    expect(failure).toBeUndefined();
    expect(await result.text).toBe('Hello');
    expect(await result.finishReason).toBe('stop');
  });

  it('GatewayChatModel.stream returns its text', async () => {
    const model = new GatewayChatModel(MODEL, {
      baseURL: BASE_URL,
      apiKey: API_KEY,
      fetch: answering(),
    });
    let text = '';
    for await (const piece of await model.stream('hi')) text += piece.text;
    expect(text).toBe('Hello');
  });
});
