// docs/gateway-protocol.md §5.2, through ai's streamText, as @ai-sdk/openai-compatible reads the
// same bytes, however they split across network reads: a stream whose role chunk (sent without
// `index`) and `[DONE]` come before its finish (sent at `index: 1`) is one empty answer finishing
// `stop` (it was `network_error` "The stream ended before any content" when the finish came in a
// later read, or at `index: 1`); text sent after `[DONE]` for the choice begun before it is the
// answer's (it was dropped, the finish beside it kept: a short answer ending `stop` in silence).

import { chatsAnsweredBy, emulate, sseReadByRead } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../index';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const MODEL = 'community/general';
const event = (choice: object) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices: [choice] })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const INDEXLESS_ROLE = event({ delta: { role: 'assistant' } });
const FINISH_AT_1 = event({ index: 1, delta: {}, finish_reason: 'stop' });
const ROLE = event({ index: 0, delta: { role: 'assistant' } });
const HELLO = event({ index: 0, delta: { role: 'assistant', content: 'Hello' } });
const WHOLE = event({ index: 0, delta: { content: 'Hello there' }, finish_reason: 'stop' });
const REST = event({ index: 0, delta: { content: ' there' }, finish_reason: 'stop' });

/** streamText on a stream answered by `reads`, one network read each: its text, finish, errors. */
async function streamedBy(reads: string[]) {
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
  return { errors, text: await stream.text, finish: await stream.finishReason, requests };
}

describe('streamText: [DONE] before the finish', () => {
  it.each([
    ['one read', [INDEXLESS_ROLE + DONE + FINISH_AT_1]],
    ['the finish in a later read', [INDEXLESS_ROLE + DONE, FINISH_AT_1]],
    ['one event a read', [INDEXLESS_ROLE, DONE, FINISH_AT_1]],
  ])('%s: an empty answer finishing stop, one request', async (_name, reads) => {
    expect(await streamedBy(reads)).toEqual({ errors: [], text: '', finish: 'stop', requests: 1 });
  });
});

describe('streamText: text after [DONE]', () => {
  it.each([
    ['a role, [DONE], the whole text', [ROLE, DONE, WHOLE]],
    ['a role and [DONE] in one read, the whole text', [ROLE + DONE, WHOLE]],
    ['"Hello", [DONE], " there"', [HELLO, DONE, REST]],
  ])('%s: "Hello there" finishing stop', async (_name, reads) => {
    const got = await streamedBy(reads);
    expect(got).toEqual({ errors: [], text: 'Hello there', finish: 'stop', requests: 1 });
  });
});
