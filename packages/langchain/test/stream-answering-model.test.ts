// docs/gateway-protocol.md §4.6: without `X-Service-Model`, the answering model is the body's
// `model` — a whole answer's, or a stream's chunks' — as ChatOpenAI reports it on both.
import { emulate } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const POOL = 'pool-a/llama-3-8b';

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c9', object: 'chat.completion.chunk', created: 1, model: POOL, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const WHOLE = {
  id: 'c9',
  object: 'chat.completion',
  created: 1,
  model: POOL,
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

describe('the answering model without X-Service-Model', () => {
  it("is the chunks' model on .stream(), as the body's on invoke", async () => {
    const gateway = await emulate();
    // The pool model's answers, with no X-Service-Model header.
    const connection = intercepting(gateway, async (request) => {
      if (!request.url.endsWith('/chat/completions')) return undefined;
      if (!(await request.json()).stream) return Response.json(WHOLE);
      const sse = `${chunk({ role: 'assistant', content: 'hi' })}${chunk({}, 'stop')}data: [DONE]\n\n`;
      return new Response(sse, { headers: { 'content-type': 'text/event-stream' } });
    });
    const model = new GatewayChatModel('community/general', connection);
    const invoked = await model.invoke('x');
    expect(invoked.response_metadata).toMatchObject({ model_name: POOL, fallback: true });
    let whole: AIMessageChunk | undefined;
    for await (const piece of await model.stream('x')) whole = whole ? concat(whole, piece) : piece;
    expect(whole?.response_metadata).toMatchObject({
      model_name: POOL,
      requested_model: 'community/general',
      fallback: true,
      route: { answeredBy: POOL },
    });
  });
});
