import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { type ChatStream, type ChatStreamEvent, GatewayError } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { convertGatewayChatStream } from './convert-gateway-chat-stream';

/** A gateway stream made of given events, optionally failing after them. */
function gatewayStream(events: ChatStreamEvent[], failure?: unknown) {
  const state = { cancelled: 0 };
  let next = 0;
  const stream: ChatStream = {
    requestedModel: 'my/laptop-model',
    servedModel: 'pool-a/llama-3-8b',
    fallback: true,
    headers: new Headers({ 'x-service-model': 'pool-a/llama-3-8b' }),
    route: {
      requested: ['my/laptop-model'],
      hops: [{ model: 'my/laptop-model', outcome: 'answered' }],
      answeredBy: 'pool-a/llama-3-8b',
    },
    async *[Symbol.asyncIterator]() {
      for (const event of events) yield event;
      if (failure !== undefined) throw failure;
    },
    // One event per batch: the conversion must not depend on how events are grouped.
    readBatch: async () => {
      if (next < events.length) return [events[next++] as ChatStreamEvent];
      if (failure !== undefined) throw failure;
      return undefined;
    },
    result: () => Promise.reject(new Error('not used')),
    cancel: async () => {
      state.cancelled++;
    },
  };
  return { stream, state };
}

const options = {
  warnings: [],
  mapError: (error: unknown) => error,
  providerMetadata: () => ({ infergate: { servedModel: 'pool-a/llama-3-8b' } }),
};

async function collect(stream: ReadableStream<LanguageModelV4StreamPart>) {
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };

describe('convertGatewayChatStream', () => {
  it('streams text with start metadata, then finish with usage', async () => {
    const { stream } = gatewayStream([
      { type: 'metadata', id: 'chatcmpl-1', model: 'm', created: 1_700_000_000 },
      { type: 'role', role: 'assistant', id: 'chatcmpl-1' },
      { type: 'text-delta', delta: 'Echo: ', choiceIndex: 0 },
      { type: 'text-delta', delta: 'hi', choiceIndex: 0 },
      { type: 'finish', reason: 'stop', choiceIndex: 0 },
      { type: 'usage', usage },
    ]);
    const parts = await collect(convertGatewayChatStream(stream, options));
    expect(parts.map((part) => part.type)).toEqual([
      'stream-start',
      'response-metadata',
      'response-metadata',
      'text-start',
      'text-delta',
      'text-delta',
      'text-end',
      'finish',
    ]);
    expect(parts[1]).toEqual({ type: 'response-metadata', modelId: 'pool-a/llama-3-8b' });
    expect(parts[2]).toEqual({
      type: 'response-metadata',
      id: 'chatcmpl-1',
      modelId: 'pool-a/llama-3-8b',
      timestamp: new Date(1_700_000_000_000),
    });
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 3 }, outputTokens: { total: 2 } },
      providerMetadata: { infergate: { servedModel: 'pool-a/llama-3-8b' } },
    });
  });

  it('streams reasoning blocks before text and tool input, closing each where the next begins', async () => {
    const { stream } = gatewayStream([
      { type: 'reasoning-delta', delta: 'Think', choiceIndex: 0 },
      { type: 'reasoning-delta', delta: 'ing', choiceIndex: 0 },
      { type: 'text-delta', delta: 'A', choiceIndex: 0 },
      { type: 'reasoning-delta', delta: 'More', choiceIndex: 0 },
      { type: 'tool-call-delta', index: 0, call: 0, id: 'c', name: 'f', argumentsDelta: '{}' },
      { type: 'finish', reason: 'tool_calls', choiceIndex: 0 },
    ]);
    const parts = await collect(convertGatewayChatStream(stream, options));
    expect(
      parts.slice(2).map((part) => ('id' in part ? `${part.type}:${part.id}` : part.type)),
    ).toEqual([
      'reasoning-start:reasoning-0',
      'reasoning-delta:reasoning-0',
      'reasoning-delta:reasoning-0',
      'reasoning-end:reasoning-0',
      'text-start:text-0',
      'text-delta:text-0',
      'text-end:text-0',
      'reasoning-start:reasoning-1',
      'reasoning-delta:reasoning-1',
      'reasoning-end:reasoning-1',
      'tool-input-start:c',
      'tool-input-delta:c',
      'tool-input-end:c',
      'tool-call',
      'finish',
    ]);
  });

  it('streams tool input pieces and emits the tool call only at the end', async () => {
    const { stream } = gatewayStream([
      { type: 'role', role: 'assistant' },
      {
        type: 'tool-call-delta',
        index: 0,
        call: 0,
        id: 'call_a',
        name: 'weather',
        argumentsDelta: '',
      },
      { type: 'tool-call-delta', index: 0, call: 0, argumentsDelta: '{"city":' },
      {
        type: 'tool-call-delta',
        index: 1,
        call: 1,
        id: 'call_b',
        name: 'time',
        argumentsDelta: '',
      },
      { type: 'tool-call-delta', index: 0, call: 0, argumentsDelta: '"Kyiv"}' },
      { type: 'finish', reason: 'tool_calls', choiceIndex: 0 },
    ]);
    const parts = await collect(convertGatewayChatStream(stream, options));
    const toolParts = parts.filter((part) => part.type.startsWith('tool'));
    expect(toolParts).toEqual([
      { type: 'tool-input-start', id: 'call_a', toolName: 'weather' },
      { type: 'tool-input-delta', id: 'call_a', delta: '{"city":' },
      { type: 'tool-input-start', id: 'call_b', toolName: 'time' },
      { type: 'tool-input-delta', id: 'call_a', delta: '"Kyiv"}' },
      { type: 'tool-input-end', id: 'call_a' },
      { type: 'tool-call', toolCallId: 'call_a', toolName: 'weather', input: '{"city":"Kyiv"}' },
      { type: 'tool-input-end', id: 'call_b' },
      { type: 'tool-call', toolCallId: 'call_b', toolName: 'time', input: '{}' },
    ]);
    expect(parts.at(-1)).toMatchObject({ finishReason: { unified: 'tool-calls' } });
  });

  it('keeps two calls apart when the server sends both at index 0 (core numbers them)', async () => {
    const { stream } = gatewayStream([
      { type: 'tool-call-delta', index: 0, call: 0, id: 'a', name: 'x', argumentsDelta: '{"n":1}' },
      { type: 'tool-call-delta', index: 0, call: 1, id: 'b', name: 'y', argumentsDelta: '{"n":' },
      { type: 'tool-call-delta', index: 0, call: 1, argumentsDelta: '2}' },
      { type: 'finish', reason: 'tool_calls', choiceIndex: 0 },
    ]);
    const parts = await collect(convertGatewayChatStream(stream, options));
    expect(parts.filter((part) => part.type === 'tool-call')).toEqual([
      { type: 'tool-call', toolCallId: 'a', toolName: 'x', input: '{"n":1}' },
      { type: 'tool-call', toolCallId: 'b', toolName: 'y', input: '{"n":2}' },
    ]);
  });

  it('turns a mid-stream failure into an error part and finish reason error, with no tool call', async () => {
    const failure = new GatewayError({ code: 'provider_request_failed', message: 'upstream died' });
    const { stream, state } = gatewayStream(
      [
        { type: 'text-delta', delta: 'partial', choiceIndex: 0 },
        {
          type: 'tool-call-delta',
          index: 0,
          call: 0,
          id: 'c',
          name: 'weather',
          argumentsDelta: '{"ci',
        },
      ],
      failure,
    );
    const parts = await collect(convertGatewayChatStream(stream, options));
    expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
    expect(parts.slice(-4)).toMatchObject([
      { type: 'text-end' },
      { type: 'tool-input-end', id: 'c' },
      { type: 'error', error: failure },
      { type: 'finish', finishReason: { unified: 'error' } },
    ]);
    expect(state.cancelled).toBe(1);
  });

  it('ends the started tool inputs when the stream ends without finish_reason', async () => {
    const { stream } = gatewayStream([
      { type: 'tool-call-delta', index: 0, call: 0, id: 'a', name: 'x', argumentsDelta: '{' },
      { type: 'tool-call-delta', index: 1, call: 1, id: 'b', argumentsDelta: '{' },
    ]);
    const parts = await collect(convertGatewayChatStream(stream, options));
    expect(parts.filter((part) => part.type.startsWith('tool-'))).toEqual([
      { type: 'tool-input-start', id: 'a', toolName: 'x' },
      { type: 'tool-input-delta', id: 'a', delta: '{' },
      { type: 'tool-input-end', id: 'a' },
    ]);
    expect(parts.slice(-2)).toMatchObject([
      { type: 'error', error: { code: 'stream_incomplete' } },
      { type: 'finish', finishReason: { unified: 'error' } },
    ]);
  });

  it('treats a stream that ends without finish_reason as an error', async () => {
    const { stream } = gatewayStream([{ type: 'text-delta', delta: 'short', choiceIndex: 0 }]);
    const parts = await collect(convertGatewayChatStream(stream, options));
    const error = parts.find((part) => part.type === 'error');
    expect(error).toMatchObject({ error: { code: 'stream_incomplete' } });
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'error' } });
  });

  it('errors the stream on abort so that ai reports an abort', async () => {
    const { stream } = gatewayStream([], new GatewayError({ code: 'aborted', message: 'aborted' }));
    const abort = new DOMException('aborted', 'AbortError');
    const converted = convertGatewayChatStream(stream, { ...options, mapError: () => abort });
    await expect(collect(converted)).rejects.toBe(abort);
  });

  it("emits core's raw chunks when asked, and only those", async () => {
    const chunk = { id: 'c1', citations: ['https://example.test'], choices: [] };
    const { stream } = gatewayStream([
      { type: 'raw', chunk },
      { type: 'finish', reason: 'stop', choiceIndex: 0 },
    ]);
    const parts = await collect(
      convertGatewayChatStream(stream, { ...options, includeRawChunks: true }),
    );
    expect(parts.filter((part) => part.type === 'raw')).toEqual([{ type: 'raw', rawValue: chunk }]);
  });

  it('cancels the gateway stream when the consumer cancels', async () => {
    const { stream, state } = gatewayStream([{ type: 'text-delta', delta: 'a', choiceIndex: 0 }]);
    const converted = convertGatewayChatStream(stream, options);
    const reader = converted.getReader();
    await reader.read();
    await reader.cancel();
    expect(state.cancelled).toBeGreaterThanOrEqual(1);
  });
});
