// docs/gateway-protocol.md §5.4: a streamed answer's blocks (reasoning from a field or Mistral's
// `thinking` parts, text, tool calls) each have their own `index` in `outputVersion: 'v1'` chunks,
// unique across block types and counted in the order the blocks start (the numbers `streamEvents`
// gives its content blocks), so the joined chunks hold invoke()'s contentBlocks on the same bytes,
// in order; `streamEvents`' content blocks are invoke()'s too.
import { emulate } from '@infergate/emulator/testing';
import type { ContentBlock } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { chunksOf, intercepting, streamOf } from './helpers';
import { INTERLEAVING_MODEL, text, thinking } from './interleaved-pieces';

const call = (index: number, id: string | undefined, name: string | undefined, args: string) => ({
  index,
  ...(id && { id, type: 'function' }),
  function: { ...(name && { name }), arguments: args },
});

/** Streamed answers (their deltas) whose blocks are of several types. */
const ANSWERS: Record<string, object[]> = {
  'reasoning in a field, then text': [
    { role: 'assistant', reasoning_content: 'Think ' },
    { reasoning_content: 'hard.' },
    { content: 'Say ' },
    { content: 'B.' },
  ],
  'reasoning in `thinking` parts, then text': [
    { role: 'assistant', content: [thinking('Think ')] },
    { content: [thinking('hard.')] },
    { content: [text('Say ')] },
    { content: [text('B.')] },
  ],
  'text, then a tool call': [
    { role: 'assistant', content: 'Let me ' },
    { content: 'look.' },
    { tool_calls: [call(0, 'call_1', 'weather', '{"city":')] },
    { tool_calls: [call(0, undefined, undefined, '"Kyiv"}')] },
  ],
  'reasoning, text, two tool calls': [
    { role: 'assistant', reasoning_content: 'Hmm.' },
    { content: 'Checking.' },
    { tool_calls: [call(0, 'call_1', 'weather', '{"city":"Kyiv"}')] },
    { tool_calls: [call(1, 'call_2', 'weather', '{"city":"Lviv"}')] },
  ],
  'text, a `thinking` part, text, then a tool call': [
    { role: 'assistant', content: 'Say A. ' },
    { content: [thinking('Think B.')] },
    { content: [text('Say ')] },
    { content: [text('C.')] },
    { tool_calls: [call(0, 'call_1', 'weather', '{"city":"Kyiv"}')] },
  ],
  'interleaved pieces, then a tool call': [
    { role: 'assistant', content: [thinking('Think A.')] },
    { content: [text('Say B.')] },
    { content: [thinking('Think C.')] },
    { content: [text('Say D.')] },
    { tool_calls: [call(0, 'call_1', 'weather', '{"city":"Kyiv"}')] },
  ],
};

/** A model on the emulated gateway whose every chat answer streams `deltas`. */
async function modelStreaming(deltas: object[], fields: { outputVersion?: 'v1' } = {}) {
  const gateway = await emulate();
  const reason = deltas.some((delta) => 'tool_calls' in delta) ? 'tool_calls' : 'stop';
  const connection = intercepting(gateway, async (request) =>
    request.url.endsWith('/chat/completions') ? streamOf(deltas, reason) : undefined,
  );
  return new GatewayChatModel(INTERLEAVING_MODEL, { ...connection, streaming: true, ...fields });
}

/** A joined chunk's blocks as invoke() gives them: no `index`, a tool call's arguments read. */
function asInvoked(blocks: ContentBlock[]): ContentBlock[] {
  return blocks.map(({ index: _index, ...block }) => {
    if (block.type !== 'tool_call_chunk') return block;
    const { id, name, args } = block as ContentBlock.Tools.ToolCallChunk;
    return { type: 'tool_call', id, name, args: JSON.parse(args ?? '') };
  });
}

describe("a streamed answer's blocks of several types", () => {
  it.each(Object.entries(ANSWERS))(
    "%s: outputVersion 'v1' chunks index each block by its start, and join to invoke()'s blocks",
    async (_name, deltas) => {
      const model = await modelStreaming(deltas, { outputVersion: 'v1' });
      const invoked = await model.invoke('hi');
      const chunks = await chunksOf(model.stream('hi'));
      const joined = chunks.reduce((whole, chunk) => concat(whole, chunk));
      const blocks = joined.content as ContentBlock[];
      // One block per index, numbered in the order the blocks start.
      expect(blocks.map((block) => block.index)).toEqual(blocks.map((_block, at) => at));
      expect(asInvoked(blocks)).toEqual(invoked.content);
      expect(joined.tool_calls).toEqual(invoked.tool_calls);
      // The numbers streamEvents gives the same blocks.
      const started: [number, string][] = [];
      for await (const event of (await modelStreaming(deltas)).streamEvents('hi')) {
        if (event.event === 'content-block-start') started.push([event.index, event.content.type]);
      }
      const pieces = chunks.flatMap((chunk) => chunk.content as ContentBlock[]);
      const firsts = blocks.map((block) => pieces.find((piece) => piece.index === block.index));
      expect(firsts.map((piece) => [piece?.index, piece?.type])).toEqual(started);
    },
  );

  it("streamEvents: reasoning in a field, sent beside the text in each chunk, is invoke()'s one reasoning block", async () => {
    const deltas = [
      { role: 'assistant', reasoning_content: 'r1 ', content: 't1 ' },
      { reasoning_content: 'r2 ', content: 't2 ' },
      { reasoning_content: 'r3', content: 't3' },
    ];
    const model = await modelStreaming(deltas);
    const finished: [number, unknown][] = [];
    for await (const event of model.streamEvents('hi')) {
      if (event.event === 'content-block-finish') finished.push([event.index, event.content]);
    }
    const invoked = await model.invoke('hi');
    expect(invoked.contentBlocks).toEqual([
      { type: 'reasoning', reasoning: 'r1 r2 r3' },
      { type: 'text', text: 't1 t2 t3' },
    ]);
    expect(finished).toEqual(invoked.contentBlocks.map((block, index) => [index, block]));
  });
});
