// docs/gateway-protocol.md §4.2: core never sends an empty `tools` list, nor the fields given with
// it: its `tool_choice` and `parallel_tool_calls` (an OpenAI-backed model server refuses
// "parallel_tool_calls is only allowed when tools are specified"); the adapters' requests
// (`buildChatRequest`) send `parallel_tool_calls` only with tools (rv-25b F4).
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../src/index';
import { buildChatRequest } from '../src/internal';
import { hi, recordingBodies as recording } from './helpers';

const messages = [{ role: 'user' as const, content: 'hi' }];
const tool = { type: 'function' as const, function: { name: 'weather', parameters: {} } };

describe('parallel_tool_calls is sent only with tools', () => {
  it('raw chat with tools: [] and parallel_tool_calls: false: the body has neither', async () => {
    const { client, bodies } = await recording();
    const request = {
      ...hi('community/plain'),
      tools: [],
      parallel_tool_calls: false,
    } as ChatRequest;
    expect((await client.chat(request)).answer.text).toBe('Echo: hello there');
    expect(bodies).toHaveLength(1);
    expect(Object.keys(bodies[0]!)).not.toContain('tools');
    expect(Object.keys(bodies[0]!)).not.toContain('parallel_tool_calls');
  });

  it('raw chat with tools: parallel_tool_calls is sent as given', async () => {
    const { client, bodies } = await recording();
    const request = {
      ...hi('community/tools'),
      tools: [tool],
      parallel_tool_calls: false,
    } as ChatRequest;
    await client.chat(request);
    expect(bodies[0]).toMatchObject({ tools: [tool], parallel_tool_calls: false });
  });

  it("an adapter's request: parallel_tool_calls in its fields, no tools or an empty list: not sent", () => {
    const extraFields = { parallel_tool_calls: false };
    expect(buildChatRequest({ model: 'm', messages, extraFields })).toEqual({
      model: 'm',
      messages,
    });
    expect(
      Object.keys(buildChatRequest({ model: 'm', messages, tools: [], extraFields })),
    ).not.toContain('parallel_tool_calls');
  });

  it("an adapter's request with tools: parallel_tool_calls is sent", () => {
    const extraFields = { parallel_tool_calls: false };
    expect(buildChatRequest({ model: 'm', messages, tools: [tool], extraFields })).toEqual({
      model: 'm',
      messages,
      tools: [tool],
      parallel_tool_calls: false,
    });
  });
});
