// A refusal sent after choice 0's finish chunk (content, `finish_reason: stop`, then a chunk with
// `delta.refusal`): core's `result()` reports the answer `content_filter`, as the whole answer
// is. stream()'s concatenated chunks say what invoke() says for the same bytes, on a plain answer
// and on a JSON-mode one (`response_format: json_object`).
import { chatsAnsweredBy, emulate, refusedAfterFinish } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';

const gateway = await emulate();
const fetch = chatsAnsweredBy(gateway.connection, refusedAfterFinish);

const cases = [
  { name: 'a plain answer', modelId: 'community/general', modelKwargs: undefined },
  {
    name: 'a json_object answer',
    modelId: 'community/json-object',
    modelKwargs: { response_format: { type: 'json_object' } },
  },
] as const;

describe.each(cases)('$name refused after its finish chunk', ({ modelId, modelKwargs }) => {
  const model = new GatewayChatModel(modelId, {
    ...gateway.connection,
    fetch,
    ...(modelKwargs ? { modelKwargs } : {}),
  });

  it('invoke: finish_reason content_filter (the whole answer)', async () => {
    const message = await model.invoke('Where?');
    expect(message.response_metadata.finish_reason).toBe('content_filter');
  });

  it("stream: the concatenated chunks' finish_reason is invoke's", async () => {
    let joined: AIMessageChunk | undefined;
    for await (const piece of await model.stream('Where?')) {
      joined = joined ? joined.concat(piece) : piece;
    }
    expect(joined?.response_metadata.finish_reason).toBe('content_filter');
  });
});
