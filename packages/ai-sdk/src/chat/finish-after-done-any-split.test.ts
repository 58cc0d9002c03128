// docs/gateway-protocol.md §5.2, through ai's streamText: a plain stream whose role chunk (sent
// without `index`) and `[DONE]` come before its finish (sent at `index: 1`) is one empty answer
// finishing `stop`, as @ai-sdk/openai-compatible reads the same bytes, however they split across
// network reads (it was `network_error` "The stream ended before any content" when the finish
// came in a later read, or at `index: 1`).

import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sseReadByRead } from '../../test/read-by-read';
import { createGateway } from '../index';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const MODEL = 'community/general';
const event = (choice: object) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices: [choice] })}\n\n`;
const ROLE = event({ delta: { role: 'assistant' } });
const DONE = 'data: [DONE]\n\n';
const FINISH = event({ index: 1, delta: {}, finish_reason: 'stop' });

describe('streamText: [DONE] before the finish', () => {
  it.each([
    ['one read', [ROLE + DONE + FINISH]],
    ['the finish in a later read', [ROLE + DONE, FINISH]],
    ['one event a read', [ROLE, DONE, FINISH]],
  ])('%s: an empty answer finishing stop, one request', async (_name, reads) => {
    let requests = 0;
    const fetch = chatsAnsweredBy(emulated.connection, () => {
      requests++;
      return sseReadByRead(reads);
    });
    const { baseURL, apiKey } = emulated;
    const gateway = createGateway({ baseURL, apiKey, fetch });
    const errors: unknown[] = [];
    const stream = streamText({
      model: gateway(MODEL),
      prompt: 'hi',
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await stream.consumeStream();
    expect(errors).toEqual([]);
    expect(await stream.text).toBe('');
    expect(await stream.finishReason).toBe('stop');
    expect(requests).toBe(1);
  });
});
