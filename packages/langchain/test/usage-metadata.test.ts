// usage_metadata as core reads the gateway's `usage` (docs/gateway-protocol.md §4.3): the output
// counts the reasoning wherever the server counts it, and no count is negative.

import type { ScenarioInput } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { chunksOf, intercepting, recordingGateway } from './helpers';

const XAI: ScenarioInput = {
  models: { 'dialect/xai': { capabilities: ['chat', 'streaming'], dialect: 'xai' } },
};

describe('usage_metadata', () => {
  it('xai dialect (reasoning outside completion_tokens): output_tokens count the reasoning', async () => {
    const { connection } = await recordingGateway(XAI);
    const model = new GatewayChatModel('dialect/xai', connection);
    const invoked = await model.invoke('hello there');
    let merged: AIMessageChunk | undefined;
    for await (const chunk of await model.stream('hello there')) {
      merged = merged ? concat(merged, chunk) : chunk;
    }
    // prompt 2 (1 cached), completion 3 ('Echo: hello there'), reasoning 10, total 15.
    for (const usage of [invoked.usage_metadata, merged?.usage_metadata]) {
      expect(usage).toMatchObject({ input_tokens: 2, output_tokens: 13, total_tokens: 15 });
      expect(usage?.output_token_details).toEqual({ reasoning: 10 });
      expect(usage?.input_token_details).toEqual({ cache_read: 1 });
    }
  });

  // ChatOpenAI gives cache_creation for these bytes (OpenRouter, OpenAI's newer models).
  it.each([
    [
      'prompt_tokens_details.cache_write_tokens',
      { cached_tokens: 0, cache_write_tokens: 1100 },
      {},
    ],
    [
      'cache_creation_input_tokens (LiteLLM)',
      { cached_tokens: 0 },
      { cache_creation_input_tokens: 1100 },
    ],
  ])(
    'prompt tokens written to the cache (%s): invoke and stream give cache_creation',
    async (_, details, extra) => {
      const usage = {
        prompt_tokens: 1200,
        completion_tokens: 10,
        total_tokens: 1210,
        prompt_tokens_details: details,
        ...extra,
      };
      const model = new GatewayChatModel('community/general', await answering(usage));
      const chunks = await chunksOf(model.stream('hi'));
      for (const read of [
        (await model.invoke('hi')).usage_metadata,
        chunks.at(-1)?.usage_metadata,
      ]) {
        expect(read).toEqual({
          input_tokens: 1200,
          output_tokens: 10,
          total_tokens: 1210,
          input_token_details: { cache_read: 0, cache_creation: 1100 },
          output_token_details: {},
        });
      }
    },
  );

  it('a negative count reads as 0, and the total is never below input + output', async () => {
    const usage = { prompt_tokens: 4, completion_tokens: -2, total_tokens: 2 };
    const model = new GatewayChatModel('community/general', await answering(usage));
    expect((await model.invoke('hi')).usage_metadata).toEqual({
      input_tokens: 4,
      output_tokens: 0,
      total_tokens: 4,
      input_token_details: {},
      output_token_details: {},
    });
  });

  // The AI SDK adapter gives the same counts for these bytes (gateway-chat-reasoning.test.ts).
  it.each([
    ['total_tokens below prompt + output', 5, 15, { output_tokens: 25, total_tokens: 35 }],
    ['no completion_tokens', undefined, 30, { output_tokens: 20, total_tokens: 30 }],
  ])('%s: the output holds the reasoning, the total both', async (_, completion, total, counts) => {
    const usage = {
      prompt_tokens: 10,
      completion_tokens: completion,
      total_tokens: total,
      completion_tokens_details: { reasoning_tokens: 20 },
    };
    const model = new GatewayChatModel('community/general', await answering(usage));
    expect((await model.invoke('hi')).usage_metadata).toEqual({
      input_tokens: 10,
      ...counts,
      input_token_details: {},
      output_token_details: { reasoning: 20 },
    });
  });

  // ChatOpenAI leaves out the counts a server did not send; a message then has none to add up.
  it.each([
    ['usage: {}', {}],
    ['every count null', { prompt_tokens: null, completion_tokens: null, total_tokens: null }],
    ['no usage', undefined],
  ])('%s: invoke and stream give no usage_metadata', async (_, usage) => {
    const model = new GatewayChatModel('community/general', await answering(usage));
    expect((await model.invoke('hi')).usage_metadata).toBeUndefined();
    const chunks = await chunksOf(model.stream('hi'));
    expect(chunks.map((chunk) => chunk.content).join('')).toBe('Echo: hi');
    expect(chunks.some((chunk) => chunk.usage_metadata)).toBe(false);
  });

  it('a lone count is kept: a total alone stays the total', async () => {
    const model = new GatewayChatModel('community/general', await answering({ total_tokens: 7 }));
    const counts = {
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 7,
      input_token_details: {},
      output_token_details: {},
    };
    expect((await model.invoke('hi')).usage_metadata).toEqual(counts);
    const chunks = await chunksOf(model.stream('hi'));
    expect(chunks.at(-1)?.usage_metadata).toEqual(counts);
  });

  it('no details counted: invoke gives `{}` details as the joined stream does (cache_read reads, never throws)', async () => {
    const usage = { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 };
    const model = new GatewayChatModel('community/general', await answering(usage));
    const invoked = (await model.invoke('hi')).usage_metadata;
    const chunks = await chunksOf(model.stream('hi'));
    const joined = chunks.reduce((whole, chunk) => whole.concat(chunk)).usage_metadata;
    expect(invoked).toEqual(joined);
    expect(invoked?.input_token_details).toEqual({});
    expect(invoked?.output_token_details).toEqual({});
    expect(invoked?.input_token_details?.cache_read).toBeUndefined();
  });
});

describe('llmOutput.tokenUsage (handleLLMEnd, generate())', () => {
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const tokenUsage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };

  it('every path gives it to handleLLMEnd: invoke (streaming or not) as .stream() does', async () => {
    const connection = await answering(usage);
    for (const streaming of [false, true]) {
      const model = new GatewayChatModel('community/general', { ...connection, streaming });
      const outputs: unknown[] = [];
      const callbacks = [
        { handleLLMEnd: (output: { llmOutput?: unknown }) => void outputs.push(output.llmOutput) },
      ];
      const message = await model.invoke('hi', { callbacks });
      await chunksOf(model.stream('hi', { callbacks }));
      expect(outputs).toEqual([{ tokenUsage }, { tokenUsage }]);
      // LangChain copies invoke's llmOutput into the message, as ChatOpenAI's.
      expect(message.response_metadata.tokenUsage).toEqual(tokenUsage);
    }
  });

  it('generate() adds up its prompts; no usage, no tokenUsage', async () => {
    const model = new GatewayChatModel('community/general', await answering(usage));
    const result = await model.generate([['hi'], ['hello']]);
    expect(result.llmOutput).toEqual({
      tokenUsage: { promptTokens: 20, completionTokens: 10, totalTokens: 30 },
    });
    const silent = new GatewayChatModel('community/general', await answering(undefined));
    const outputs: unknown[] = [];
    const callbacks = [
      { handleLLMEnd: (output: { llmOutput?: unknown }) => void outputs.push(output.llmOutput) },
    ];
    const message = await silent.invoke('hi', { callbacks });
    expect(outputs).toEqual([undefined]);
    expect(message.response_metadata.tokenUsage).toBeUndefined();
  });
});

/**
 * A connection to the emulator whose chat answers carry this `usage` instead (none when
 * undefined): the whole answer's, and a streamed answer's last event.
 */
async function answering(usage: Record<string, unknown> | undefined) {
  const gateway = await emulate();
  return intercepting(gateway, async (request, emulator) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const answer = await emulator.fetch(request);
    const init = { status: answer.status, headers: new Headers(answer.headers) };
    init.headers.delete('content-length');
    if (answer.headers.get('content-type')?.includes('text/event-stream')) {
      return new Response(withUsage(await answer.text(), usage), init);
    }
    return Response.json({ ...((await answer.json()) as object), usage }, init);
  });
}

/** An SSE body with each event's `usage` replaced (or left out), and one usage event at the end. */
function withUsage(sse: string, usage: Record<string, unknown> | undefined): string {
  const events = sse
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => ({ ...JSON.parse(event.slice(6)), usage: undefined }))
    .filter((event) => event.choices.length > 0);
  if (usage) events.push({ ...events[0], choices: [], usage });
  return `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`;
}
