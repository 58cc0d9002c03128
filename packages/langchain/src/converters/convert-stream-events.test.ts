import type { ChatStreamEvent } from '@infergate/core';
import type { AIMessageChunk } from '@langchain/core/messages';
import type { ChatGenerationChunk } from '@langchain/core/outputs';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { readChatChunks } from './convert-stream-events';

/** The chunks `readChatChunks` makes of the events of one stream, read in one batch. */
async function chunksOf(
  identity: { requestedModel: string; servedModel: string; fallback: boolean },
  events: ChatStreamEvent[],
): Promise<ChatGenerationChunk[]> {
  const batches = [events];
  const route = {
    requested: [identity.requestedModel],
    hops: [{ model: identity.requestedModel, outcome: 'answered' as const }],
    answeredBy: identity.servedModel,
  };
  const stream = {
    ...identity,
    route,
    readBatch: async () => batches.shift(),
    cancel: async () => {},
  };
  const chunks: ChatGenerationChunk[] = [];
  for await (const chunk of readChatChunks(stream)) chunks.push(chunk);
  return chunks;
}

describe('readChatChunks', () => {
  it('turns events into text and tool-call chunks, with usage and metadata once at the end', async () => {
    const chunks = await chunksOf(
      {
        requestedModel: 'my/laptop-model',
        servedModel: 'pool-a/llama-3-8b',
        fallback: true,
      },
      [
        { type: 'role', role: 'assistant', id: 'chatcmpl-1' },
        { type: 'text-delta', delta: 'Hel', choiceIndex: 0 },
        { type: 'text-delta', delta: 'lo', choiceIndex: 0 },
        {
          type: 'tool-call-delta',
          index: 0,
          call: 0,
          id: 'c1',
          name: 'weather',
          argumentsDelta: '',
        },
        { type: 'tool-call-delta', index: 0, call: 0, argumentsDelta: '{"city":' },
        { type: 'tool-call-delta', index: 0, call: 0, argumentsDelta: '"Kyiv"}' },
        { type: 'finish', reason: 'tool_calls', choiceIndex: 0 },
        {
          type: 'usage',
          usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
        },
      ],
    );
    expect(chunks).toHaveLength(6);
    const withUsage = chunks.filter((c) => (c.message as AIMessageChunk).usage_metadata);
    expect(withUsage).toHaveLength(1);

    const merged = chunks.reduce((a, b) => concat(a, b));
    const message = merged.message as AIMessageChunk;
    expect(message.content).toBe('Hello');
    expect(message.tool_calls).toEqual([
      { type: 'tool_call', id: 'c1', name: 'weather', args: { city: 'Kyiv' } },
    ]);
    expect(message.usage_metadata).toMatchObject({
      input_tokens: 3,
      output_tokens: 4,
      total_tokens: 7,
    });
    expect(message.response_metadata).toMatchObject({
      model_name: 'pool-a/llama-3-8b',
      requested_model: 'my/laptop-model',
      fallback: true,
      finish_reason: 'tool_calls',
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });
    expect(message.id).toBe('chatcmpl-1');
  });

  it('keeps two calls apart when the server sends both at index 0 (core numbers them)', async () => {
    const chunks = await chunksOf(
      {
        requestedModel: 'm',
        servedModel: 'm',
        fallback: false,
      },
      [
        {
          type: 'tool-call-delta',
          index: 0,
          call: 0,
          id: 'a',
          name: 'x',
          argumentsDelta: '{"n":1}',
        },
        {
          type: 'tool-call-delta',
          index: 0,
          call: 1,
          id: 'b',
          name: 'y',
          argumentsDelta: '{"n":',
        },
        { type: 'tool-call-delta', index: 0, call: 1, argumentsDelta: '2}' },
      ],
    );
    const message = chunks.reduce((a, b) => concat(a, b)).message as AIMessageChunk;
    expect(message.tool_calls?.map(({ id, name, args }) => ({ id, name, args }))).toEqual([
      { id: 'a', name: 'x', args: { n: 1 } },
      { id: 'b', name: 'y', args: { n: 2 } },
    ]);
  });

  it('streams reasoning into additional_kwargs.reasoning_content (concatenated) and a reasoning block; id from a metadata event', async () => {
    const chunks = await chunksOf(
      {
        requestedModel: 'm',
        servedModel: 'm',
        fallback: false,
      },
      [
        { type: 'metadata', id: 'r9', model: 'm', created: 1 },
        { type: 'reasoning-delta', delta: 'Think', choiceIndex: 0 },
        { type: 'reasoning-delta', delta: 'ing.', choiceIndex: 0 },
        { type: 'text-delta', delta: 'Yes', choiceIndex: 0 },
        { type: 'finish', reason: 'stop', choiceIndex: 0 },
        {
          type: 'usage',
          usage: {
            prompt_tokens: 3,
            completion_tokens: 4,
            total_tokens: 7,
            completion_tokens_details: { reasoning_tokens: 2 },
            prompt_tokens_details: { cached_tokens: 1 },
          },
        },
      ],
    );
    const message = chunks.reduce((a, b) => concat(a, b)).message as AIMessageChunk;
    expect(message.id).toBe('r9');
    expect(message.content).toBe('Yes');
    expect(message.additional_kwargs.reasoning_content).toBe('Thinking.');
    expect(message.contentBlocks).toEqual([
      { type: 'reasoning', reasoning: 'Thinking.' },
      { type: 'text', text: 'Yes' },
    ]);
    expect(message.usage_metadata?.output_token_details).toEqual({ reasoning: 2 });
    expect(message.usage_metadata?.input_token_details).toEqual({ cache_read: 1 });
  });
});
