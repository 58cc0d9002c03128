// docs/gateway-protocol.md §4.6: `X-Service-Model` names the answering model; without it, a body
// `model` that is the requested one with a version suffix (`-2025-01-01`, as OpenAI and most model
// servers name a snapshot) is the requested model answering, not a fallback. The body's own
// `model` is kept in `response_metadata.model` (ChatOpenAI's `model_name`), with the header or not.
import { emulate, unheadedAnswer } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const MODEL = 'community/general';
const DATED = `${MODEL}-2025-01-01`;

/** `unheadedAnswer` of `DATED`, with `X-Service-Model: MODEL` when `headed`. */
async function datedAnswers(headed: boolean) {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const answer = unheadedAnswer(DATED, (await request.json()).stream === true);
    if (headed) answer.headers.set('x-service-model', MODEL);
    return answer;
  });
  return new GatewayChatModel(MODEL, connection);
}

const SAME = {
  model_name: MODEL,
  requested_model: MODEL,
  fallback: false,
  model: DATED,
  route: { answeredBy: MODEL },
};

describe('a dated model in the answer body', () => {
  it.each([
    ['with X-Service-Model', true],
    ['without X-Service-Model', false],
  ])('%s: no fallback; the body model in response_metadata.model', async (_name, headed) => {
    const model = await datedAnswers(headed);
    const invoked = await model.invoke('x');
    expect(invoked.response_metadata).toMatchObject(SAME);
    let whole: AIMessageChunk | undefined;
    for await (const piece of await model.stream('x')) whole = whole ? concat(whole, piece) : piece;
    expect(whole?.response_metadata).toMatchObject(SAME);
  });
});
