// docs/gateway-protocol.md §4.4: a streamed tool call that never got a function name is no call
// to run: streamText reports `invalid_response` (as @ai-sdk/openai-compatible refuses the same
// bytes) and runs no tool, before or after `[DONE]`.

import { isGatewayError } from '@infergate/core';
import { chatsAnsweredBy, emulate, sseReadByRead } from '@infergate/emulator/testing';
import { jsonSchema, streamText, tool } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../index';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const MODEL = 'community/tools';
const event = (choice: object) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices: [choice] })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const ROLE = event({ index: 0, delta: { role: 'assistant' }, finish_reason: null });
const NAMELESS = event({
  index: 0,
  delta: { tool_calls: [{ index: 0, function: { arguments: '{"q":1}' } }] },
  finish_reason: null,
});
const TOOL_CALLS = event({ index: 0, delta: {}, finish_reason: 'tool_calls' });

describe('streamText with tools: a call without a function name', () => {
  it.each([
    ['before [DONE]', ROLE + NAMELESS + TOOL_CALLS + DONE],
    ['after [DONE]', ROLE + DONE + NAMELESS + TOOL_CALLS],
  ])('%s: invalid_response, no tool run', async (_name, text) => {
    const fetch = chatsAnsweredBy(emulated.connection, () => sseReadByRead([text]));
    const { baseURL, apiKey } = emulated;
    const runs: unknown[] = [];
    const lookup = tool({
      inputSchema: jsonSchema<{ q?: number }>({ type: 'object' }),
      execute: async (input) => {
        runs.push(input);
        return 'found';
      },
    });
    const errors: unknown[] = [];
    const stream = streamText({
      model: createGateway({ baseURL, apiKey, fetch })(MODEL),
      prompt: 'hi',
      tools: { lookup },
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await stream.consumeStream();
    // (ai's error wraps the gateway's as its cause.)
    const codes = errors.map((error) => {
      const cause = (error as { cause?: unknown }).cause;
      return isGatewayError(cause) && cause.code;
    });
    expect(codes).toEqual(['invalid_response']);
    expect(await stream.toolCalls).toEqual([]);
    expect(runs).toEqual([]);
  });
});
