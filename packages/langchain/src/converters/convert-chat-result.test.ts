import {
  type ChatCompletionResponse,
  createGatewayClient,
  type ChatResult as GatewayChatResult,
} from '@infergate/core';
import type { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { convertChatResult } from './convert-chat-result';

/** What `client.chat()` returns for a gateway answering `fields.response`: core's reading of it. */
async function gatewayResult(
  fields: Omit<GatewayChatResult, 'answer' | 'route'>,
): Promise<GatewayChatResult> {
  const client = createGatewayClient({
    baseURL: 'https://gateway.test/v1',
    apiKey: 'test-key-0123',
    fetch: async () => Response.json(fields.response),
  });
  // (The capabilities given: core's gate reads no catalog, which this stub does not serve.)
  const { answer, route } = await client.chat(
    { model: fields.requestedModel, messages: [{ role: 'user', content: 'hi' }] },
    { capabilities: ['chat'] },
  );
  return { ...fields, answer, route };
}

describe('convertChatResult', () => {
  it('maps text, tool calls (valid and invalid), usage and metadata', async () => {
    const result = convertChatResult(
      await gatewayResult({
        requestedModel: 'my/laptop-model',
        servedModel: 'pool-a/llama-3-8b',
        fallback: true,
        headers: new Headers(),
        response: {
          id: 'chatcmpl-9',
          object: 'chat.completion',
          created: 1,
          model: 'pool-a/llama-3-8b',
          choices: [
            {
              index: 0,
              finish_reason: 'tool_calls',
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [
                  { id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
                  { id: 'b', type: 'function', function: { name: 'g', arguments: '{"x":' } },
                ],
              },
            },
          ],
          usage: { prompt_tokens: 2, completion_tokens: 5, total_tokens: 7 },
        },
      }),
    );
    const message = result.generations[0]?.message;
    expect(message?.content).toBe('');
    expect(message && 'tool_calls' in message ? message.tool_calls : undefined).toEqual([
      { type: 'tool_call', id: 'a', name: 'f', args: { x: 1 } },
    ]);
    expect(
      message && 'invalid_tool_calls' in message ? message.invalid_tool_calls : [],
    ).toHaveLength(1);
    expect(message?.response_metadata).toMatchObject({
      model_name: 'pool-a/llama-3-8b',
      requested_model: 'my/laptop-model',
      fallback: true,
      finish_reason: 'tool_calls',
    });
    expect(message && 'usage_metadata' in message ? message.usage_metadata : undefined).toEqual({
      input_tokens: 2,
      output_tokens: 5,
      total_tokens: 7,
      input_token_details: {},
      output_token_details: {},
    });
  });

  it('puts reasoning in additional_kwargs.reasoning_content and a reasoning content block', async () => {
    const response = {
      id: 'r',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: [{ type: 'text', text: 'Because.' }] },
              { type: 'text', text: 'Yes.' },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 2,
        completion_tokens: 5,
        total_tokens: 7,
        completion_tokens_details: { reasoning_tokens: 3 },
      },
    } as unknown as ChatCompletionResponse;
    const message = convertChatResult(
      await gatewayResult({
        requestedModel: 'm',
        servedModel: 'm',
        fallback: false,
        headers: new Headers(),
        response,
      }),
    ).generations[0]?.message as AIMessage;
    expect(message.content).toBe('Yes.');
    expect(message.additional_kwargs.reasoning_content).toBe('Because.');
    expect(message.contentBlocks).toEqual([
      { type: 'reasoning', reasoning: 'Because.' },
      { type: 'text', text: 'Yes.' },
    ]);
    expect(message.usage_metadata?.output_token_details).toEqual({ reasoning: 3 });
  });
});
