// docs/gateway-protocol.md §5.2 and §4.8 item 5, through ai's streamText with `Output.object`: a
// structured stream held for its check (a model left to fall back to) whose finish (and usage)
// comes after `data: [DONE]` is read by core's one rule, as the plain stream reads it: the answer
// arrives once, with its usage, and the next model is not asked (it was: a second paid request).

import { chatsAnsweredBy, emulate, sseReadByRead } from '@infergate/emulator/testing';
import { Output, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createGateway } from '../src';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const USAGE = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };
const chunk = (model: string, delta: object, finish: string | null = null, extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'c1', model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;

/** Each chat answered with the JSON, `[DONE]`, then the finish and usage: one network read each. */
function answeringAfterDone(sent: string[]): typeof fetch {
  return chatsAnsweredBy(emulated.connection, ({ model }) => {
    sent.push(model);
    return sseReadByRead([
      chunk(model, { role: 'assistant', content: '{"city":' }) +
        chunk(model, { content: '"Oslo"}' }),
      'data: [DONE]\n\n',
      chunk(model, {}, 'stop', { usage: USAGE }),
    ]);
  });
}

describe('streamText + Output.object, the finish after [DONE]', () => {
  it('is the answer, once, with its usage; the fallback model is not asked', async () => {
    const sent: string[] = [];
    const { baseURL, apiKey } = emulated;
    const gateway = createGateway({ baseURL, apiKey, fetch: answeringAfterDone(sent) });
    const errors: unknown[] = [];
    const stream = streamText({
      model: gateway('community/json-schema', { fallbackModels: ['community/json-object'] }),
      prompt: 'Where?',
      output: Output.object({ schema: z.object({ city: z.string() }) }),
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await stream.consumeStream();
    expect(errors).toEqual([]);
    expect(await stream.text).toBe('{"city":"Oslo"}');
    expect(await stream.output).toEqual({ city: 'Oslo' });
    expect(await stream.finishReason).toBe('stop');
    expect((await stream.usage).totalTokens).toBe(4);
    expect(sent).toEqual(['community/json-schema']);
  });
});
