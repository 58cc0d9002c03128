// docs/gateway-protocol.md §4.3: a choice's `logprobs` (asked with `modelKwargs: { logprobs: true }`)
// and every choice of an `n` > 1 answer reach the user where `ChatOpenAI` puts them: nothing the
// server sent for them is dropped. Core reads them; the adapter maps.
import { chatSse, emulate } from '@infergate/emulator/testing';
import type { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import type { ChatGeneration } from '@langchain/core/outputs';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const MODEL = 'community/general';
const token = (text: string, logprob: number) => ({
  token: text,
  logprob,
  bytes: [...text].map((c) => c.charCodeAt(0)),
  top_logprobs: [],
});
const answer = (text: string, index: number, logprobs: object | null) => ({
  index,
  message: { role: 'assistant', content: text },
  finish_reason: 'stop',
  logprobs,
});

/**
 * A model whose chat answers are `serve(body)`, the rest the emulator's, asking two choices (a
 * stream asks one: `n` > 1 is refused there, streamed-choices-refused.test.ts).
 */
async function servedBy(serve: (body: { stream?: boolean }) => Response, n = 2) {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) =>
    request.url.endsWith('/chat/completions') ? serve(await request.json()) : undefined,
  );
  return new GatewayChatModel(MODEL, {
    ...connection,
    modelKwargs: { logprobs: true, top_logprobs: 1, n },
  });
}

describe('logprobs and several choices', () => {
  it("generate(): one generation per choice, each with its logprobs, as ChatOpenAI's", async () => {
    const first = { content: [token('Hi', -0.1)] };
    const model = await servedBy(() =>
      Response.json(
        {
          id: 'c1',
          object: 'chat.completion',
          model: MODEL,
          // Choice 1 first: a reader goes by `index`.
          choices: [answer('Hello', 1, null), answer('Hi', 0, first)],
          usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
        },
        { headers: { 'x-service-model': MODEL } },
      ),
    );
    const result = await model.generate([['hi']]);
    const [zero, one] = result.generations[0] as [ChatGeneration, ChatGeneration];
    expect(result.generations[0]).toHaveLength(2);
    expect(zero.text).toBe('Hi');
    expect(zero.generationInfo?.logprobs).toEqual(first);
    expect((zero.message as AIMessage).response_metadata.logprobs).toEqual(first);
    expect(one.text).toBe('Hello');
    expect((one.message as AIMessage).response_metadata.logprobs).toBeUndefined();
    const invoked = await model.invoke('hi');
    expect(invoked.content).toBe('Hi');
    expect(invoked.response_metadata.logprobs).toEqual(first);
  });

  it("stream(): each chunk's logprobs, joined on concat as ChatOpenAI's chunks join", async () => {
    const said = (content: string, logprob: number) => ({
      choices: [{ index: 0, delta: { content }, logprobs: { content: [token(content, logprob)] } }],
    });
    const model = await servedBy(
      () =>
        new Response(
          chatSse(MODEL, [
            said('Hi', -0.1),
            said(' there', -0.2),
            { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
          ]),
          { headers: { 'content-type': 'text/event-stream', 'x-service-model': MODEL } },
        ),
      1,
    );
    let whole: AIMessageChunk | undefined;
    for await (const piece of await model.stream('hi'))
      whole = whole ? concat(whole, piece) : piece;
    expect(whole?.content).toBe('Hi there');
    expect(whole?.response_metadata.logprobs).toEqual({
      content: [token('Hi', -0.1), token(' there', -0.2)],
    });
  });
});
