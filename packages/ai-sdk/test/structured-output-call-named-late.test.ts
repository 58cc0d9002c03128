// streamText + Output.object when the server names a tool call in a later chunk than the one that
// opens it: core holds the call's pieces until its name tells which call it is, so a call of a
// tool nobody offered never reaches ai (no "tool call without a function name" error part), and
// the schema's tool call (method `tools`) streams its whole JSON.

import { emulate } from '@infergate/emulator/testing';
import { Output, streamText, tool } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { providersOn, recordingChatBodies } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { gateway } = providersOn(emulated);

/** `model` streams `deltas` then finish `tool_calls`; other requests are the emulator's. */
function streaming(model: string, deltas: object[]) {
  return async (request: Request): Promise<Response> => {
    if (!request.url.endsWith('/chat/completions')) return emulated.fetch(request);
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const text = `${chunk({ role: 'assistant' }, null)}${deltas.map((delta) => chunk(delta, null)).join('')}${chunk({}, 'tool_calls')}data: [DONE]\n\n`;
    const headers = { 'x-service-model': model, 'content-type': 'text/event-stream' };
    return new Response(text, { headers });
  };
}

const output = () => Output.object({ schema: z.object({ city: z.string() }) });
const prompt = 'Where is "Oslo"?';

/** What `read` takes of a streamText result (whatever its tools). */
interface Streamed {
  fullStream: AsyncIterable<{ type: string }>;
  finishReason: PromiseLike<string>;
  output: PromiseLike<unknown>;
}

/** The stream's parts (an error part with its message), its text deltas joined, and its ends. */
async function read(result: Streamed) {
  const parts: string[] = [];
  let text = '';
  for await (const part of result.fullStream) {
    parts.push('error' in part ? `error: ${String(part.error)}` : part.type);
    if (part.type === 'text-delta' && 'text' in part) text += String(part.text);
  }
  return { parts, text, finishReason: await result.finishReason, output: await result.output };
}

describe('Output.object streamed, a tool call named after its first piece', () => {
  it('a call of a tool nobody offered, beside JSON text: left out, finish stop', async () => {
    const send = streaming('community/general', [
      { content: '{"city":"Oslo"}' },
      { tool_calls: [{ index: 0, id: 's1', type: 'function', function: { arguments: '{}' } }] },
      { tool_calls: [{ index: 0, function: { name: 'response' } }] },
    ]);
    const { settings } = recordingChatBodies({ circuitBreaker: false }, send);
    const weather = tool({ inputSchema: z.object({ city: z.string() }), execute: async () => '' });
    const result = streamText({
      model: gateway(settings)('community/general'),
      output: output(),
      prompt,
      tools: { weather },
      maxRetries: 0,
    });
    const { parts, text, finishReason, output: value } = await read(result);
    expect(parts.filter((part) => part.startsWith('error') || part.startsWith('tool'))).toEqual([]);
    expect([finishReason, value, JSON.parse(text)]).toEqual([
      'stop',
      { city: 'Oslo' },
      { city: 'Oslo' },
    ]);
    expect(await result.toolCalls).toEqual([]);
  });

  it('the schema’s tool (method tools): its text deltas join to the whole JSON', async () => {
    const send = streaming('community/tools', [
      { tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { arguments: '{"ci' } }] },
      { tool_calls: [{ index: 0, function: { name: 'response', arguments: 'ty":"Oslo"}' } }] },
    ]);
    const { settings } = recordingChatBodies({ circuitBreaker: false }, send);
    const result = streamText({
      model: gateway(settings)('community/tools'),
      output: output(),
      prompt,
      maxRetries: 0,
    });
    const { parts, text, finishReason, output: value } = await read(result);
    expect(parts.filter((part) => part.startsWith('error') || part.startsWith('tool'))).toEqual([]);
    expect([text, finishReason, value]).toEqual(['{"city":"Oslo"}', 'stop', { city: 'Oslo' }]);
  });
});
