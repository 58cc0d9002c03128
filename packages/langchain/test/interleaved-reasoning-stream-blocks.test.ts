// docs/gateway-protocol.md §5.4: a streamed answer interleaving reasoning and text (Mistral's
// `thinking` parts: thinking A, text B, thinking C, text D) keeps that order in
// `outputVersion: 'v1'` chunks' content blocks (joined) and in `streamEvents`' content-block
// events, a block per piece, as invoke()'s contentBlocks have it.
import { emulate } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { intercepting } from './helpers';
import { INTERLEAVING_MODEL, ORDERED, SPLIT_DELTAS, streamedAnswer } from './interleaved-pieces';

const MODEL = INTERLEAVING_MODEL;

/** A model on the emulated gateway whose every chat answer streams `SPLIT_DELTAS`. */
async function interleavingModel(fields: { outputVersion?: 'v1' } = {}) {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    return streamedAnswer(SPLIT_DELTAS);
  });
  return new GatewayChatModel(MODEL, { ...connection, ...fields });
}

/** The blocks without their stream `index`. */
const unindexed = (blocks: unknown) =>
  (blocks as Record<string, unknown>[]).map(({ index: _index, ...block }) => block);

describe('a streamed answer interleaving reasoning and text', () => {
  it("outputVersion 'v1': the joined chunks' content has a block per piece, in order", async () => {
    const model = await interleavingModel({ outputVersion: 'v1' });
    let joined: AIMessageChunk | undefined;
    for await (const chunk of await model.stream('hi')) {
      joined = joined ? joined.concat(chunk) : chunk;
    }
    expect(unindexed(joined?.content)).toEqual(ORDERED);
  });

  it('streamEvents: a content block per piece, in order, each finished with its own text', async () => {
    const model = await interleavingModel();
    const finished: unknown[] = [];
    const started: number[] = [];
    for await (const event of model.streamEvents('hi')) {
      if (event.event === 'content-block-start') started.push(event.index);
      if (event.event === 'content-block-finish') finished.push(event.content);
    }
    expect(started).toEqual([0, 1, 2, 3]);
    expect(finished).toEqual(ORDERED);
  });
});
