// docs/gateway-protocol.md §5.2, through ai's streamText: text sent after `[DONE]` for the choice
// begun before it is the answer's, as @ai-sdk/openai-compatible reads the same bytes (it was
// dropped, the finish beside it kept: an empty or short answer ending `stop` in silence).

import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sseReadByRead } from '../../test/read-by-read';
import { createGateway } from '../index';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const MODEL = 'community/general';
const event = (choice: object) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices: [choice] })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const ROLE = event({ index: 0, delta: { role: 'assistant' } });
const HELLO = event({ index: 0, delta: { role: 'assistant', content: 'Hello' } });
const WHOLE = event({ index: 0, delta: { content: 'Hello there' }, finish_reason: 'stop' });
const REST = event({ index: 0, delta: { content: ' there' }, finish_reason: 'stop' });

describe('streamText: text after [DONE]', () => {
  it.each([
    ['a role, [DONE], the whole text', [ROLE, DONE, WHOLE]],
    ['a role and [DONE] in one read, the whole text', [ROLE + DONE, WHOLE]],
    ['"Hello", [DONE], " there"', [HELLO, DONE, REST]],
  ])('%s: "Hello there" finishing stop', async (_name, reads) => {
    const fetch = chatsAnsweredBy(emulated.connection, () => sseReadByRead(reads));
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
    expect(await stream.text).toBe('Hello there');
    expect(await stream.finishReason).toBe('stop');
  });
});
