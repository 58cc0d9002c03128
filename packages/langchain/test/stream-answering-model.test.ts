// docs/gateway-protocol.md §4.6: without `X-Service-Model`, the answering model is the body's
// `model` — a whole answer's, or a stream's chunks' — as ChatOpenAI reports it on both.
import { emulate, unheadedAnswer } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const POOL = 'pool-a/llama-3-8b';

describe('the answering model without X-Service-Model', () => {
  it("is the chunks' model on .stream(), as the body's on invoke", async () => {
    const gateway = await emulate();
    // The pool model's answers, with no X-Service-Model header.
    const connection = intercepting(gateway, async (request) => {
      if (!request.url.endsWith('/chat/completions')) return undefined;
      return unheadedAnswer(POOL, (await request.json()).stream === true);
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
