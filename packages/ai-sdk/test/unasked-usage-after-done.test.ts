// docs/gateway-protocol.md §5.2, through ai's streamText: a gateway made with `streamUsage: false`
// asks for no usage, but a usage the server sends anyway after `data: [DONE]` is the answer's, as
// ai's own OpenAI-compatible provider reads it (core's one rule after `[DONE]`: read on until the
// body ends, or the finish and a usage are in, or a cut request's grace passed).

import { chatsAnsweredBy, emulate, sseReadByRead } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../src';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const USAGE = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };
const chunk = (model: string, choices: object[], extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'c1', model, choices, ...extra })}\n\n`;

/** Each chat answered `Hello`, its finish, `[DONE]`, then a usage: one network read each. */
function usageAfterDone(sent: object[]): typeof fetch {
  return chatsAnsweredBy(emulated.connection, (body) => {
    sent.push(body);
    const { model } = body;
    return sseReadByRead([
      chunk(model, [{ index: 0, delta: { role: 'assistant', content: 'Hello' } }]),
      chunk(model, [{ index: 0, delta: {}, finish_reason: 'stop' }]),
      'data: [DONE]\n\n',
      chunk(model, [], { usage: USAGE }),
    ]);
  });
}

describe('streamText with streamUsage: false, a usage sent unasked after [DONE]', () => {
  it('is the answer usage', async () => {
    const sent: object[] = [];
    const { baseURL, apiKey } = emulated;
    const gateway = createGateway({
      baseURL,
      apiKey,
      streamUsage: false,
      fetch: usageAfterDone(sent),
    });
    const stream = streamText({ model: gateway('community/general'), prompt: 'hi' });
    expect(await stream.text).toBe('Hello');
    const usage = await stream.usage;
    expect([usage.inputTokens, usage.outputTokens, usage.totalTokens]).toEqual([3, 1, 4]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toHaveProperty('stream_options');
  });
});
