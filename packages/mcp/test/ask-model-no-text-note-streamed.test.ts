/**
 * `ask_model` streamed (the client sent a progress token, so the answer is read as it comes) on an
 * answer with only tool calls says why it has no text, as the whole answer's path does: each call
 * named with its arguments. Through the MCP SDK's Client with `onprogress` against the emulator,
 * the model server's streamed answer scripted by the kit.
 */
import { chatsAnsweredBy, oneMessageAnswer } from '@infergate/emulator/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness';

const streamed: boolean[] = [];
const fetch = chatsAnsweredBy({ fetch: globalThis.fetch }, (body) => {
  streamed.push(body.stream === true);
  const call = { name: 'get_weather', arguments: '{"city":"Kyiv"}' };
  const message = { content: null, tool_calls: [{ id: 'c1', type: 'function', function: call }] };
  return oneMessageAnswer(body.model, message, 'tool_calls', body.stream === true);
});

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ server: { clientOptions: { fetch } } });
}, 120_000);
afterAll(async () => {
  await harness.close();
});

describe('ask_model streamed, on an answer with only tool calls', () => {
  it('the note names the call and its arguments, as for the whole answer', async () => {
    const client = await harness.connect();
    const result = (await client.callTool(
      { name: 'ask_model', arguments: { model: 'community/general', prompt: 'weather?' } },
      undefined,
      { onprogress: () => {} },
    )) as CallToolResult;
    expect(streamed).toEqual([true]);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ text: '', finish_reason: 'tool_calls' });
    expect(result.content.map((block) => (block.type === 'text' ? block.text : ''))).toEqual([
      '(the model gave no text (finish_reason tool_calls): it asked to call tool `get_weather` with {"city":"Kyiv"}; ask_model offers the model no tools and runs none: ask again for the answer in text, or ask another model)',
    ]);
  });
});
