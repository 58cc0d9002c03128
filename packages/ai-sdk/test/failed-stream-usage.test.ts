// The usage a failed stream reports at its finish (convert-gateway-chat-stream.ts, `failed`;
// review rv-mut A04): a stream that fails after the server already reported its usage (a server
// that sends it in every chunk, as vLLM's continuous usage stats do) keeps that usage: an error
// without one does not wipe out what was seen. (An answer core's structured check refused was
// reached through a raw providerOptions.infergate.response_format, now refused before sending:
// provider-options-ai-settings-refused.test.ts; with `output`, the last answer is handed to ai.)

import { emulate } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { providersOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { gateway } = providersOn(emulated);
const MODEL = 'community/general';
const USAGE = { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 };

/** Two text chunks, each with the usage so far, then the body ends: no finish_reason, no [DONE]. */
async function cutAfterUsage(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  if (!request.url.endsWith('/chat/completions')) return emulated.fetch(request);
  const chunk = (content: string, usage: object) =>
    `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: MODEL, choices: [{ index: 0, delta: { content }, finish_reason: null }], usage })}\n\n`;
  const text = `${chunk('Hello', { ...USAGE, completion_tokens: 1, total_tokens: 8 })}${chunk(' there', USAGE)}`;
  const headers = { 'x-service-model': MODEL, 'content-type': 'text/event-stream' };
  return new Response(text, { status: 200, headers });
}

/** streamText's parts' types, its text and its `finish` part. */
async function partsOf(result: ReturnType<typeof streamText>) {
  let text = '';
  let finish: { finishReason?: unknown; totalUsage?: unknown } | undefined;
  const types: string[] = [];
  for await (const part of result.fullStream) {
    types.push(part.type);
    if (part.type === 'text-delta') text += part.text;
    if (part.type === 'finish') finish = part;
  }
  return { text, finish, types };
}

describe('streamText: the usage of a failed stream', () => {
  it('a stream cut after it reported its usage: finish reason error, that usage', async () => {
    const result = streamText({
      model: gateway({ fetch: cutAfterUsage, circuitBreaker: false })(MODEL),
      prompt: 'hi',
      maxRetries: 0,
      onError: () => {},
    });
    const { text, finish, types } = await partsOf(result);
    expect(text).toBe('Hello there');
    expect(types.slice(-3)).toEqual(['error', 'finish-step', 'finish']);
    expect(finish?.finishReason).toBe('error');
    expect(finish?.totalUsage).toMatchObject({ inputTokens: 7, outputTokens: 2, totalTokens: 9 });
  });
});
