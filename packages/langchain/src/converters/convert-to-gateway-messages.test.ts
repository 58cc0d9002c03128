import { isGatewayError } from '@infergate/core';
import {
  AIMessage,
  ChatMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { convertToGatewayMessages } from './convert-to-gateway-messages';

describe('convertToGatewayMessages', () => {
  it('maps the four roles, tool calls and tool results', () => {
    const messages = convertToGatewayMessages([
      new SystemMessage('be brief'),
      new HumanMessage('weather in "Kyiv"?'),
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'call_1', name: 'weather', args: { city: 'Kyiv' }, type: 'tool_call' }],
      }),
      new ToolMessage({ content: 'sunny', tool_call_id: 'call_1' }),
      new AIMessage('It is sunny.'),
    ]);
    expect(messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'weather in "Kyiv"?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Kyiv"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      { role: 'assistant', content: 'It is sunny.' },
    ]);
  });

  it('flattens text parts to a string when the model does not accept parts', () => {
    const [system, user] = convertToGatewayMessages([
      new SystemMessage({
        content: [
          { type: 'text', text: 'be ' },
          { type: 'text', text: 'brief' },
        ],
      }),
      new HumanMessage({ content: [{ type: 'text', text: 'hi' }] }),
    ]);
    expect(system).toEqual({ role: 'system', content: 'be brief' });
    expect(user).toEqual({ role: 'user', content: 'hi' });
  });

  it('refuses an image part unless parts are accepted, naming field and model', () => {
    const message = new HumanMessage({
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: 'https://example.test/a.png' } },
      ],
    });
    let caught: unknown;
    try {
      convertToGatewayMessages([message], { model: 'community/general' });
    } catch (error) {
      caught = error;
    }
    expect(isGatewayError(caught)).toBe(true);
    expect((caught as Error).message).toMatch(
      /messages\[0\]\.content\[1\].*image_url.*community\/general/,
    );
    expect((caught as Error).message).toMatch(/acceptsContentParts/);
  });

  it('sends parts as they are when accepted, images as image_url', () => {
    const [user] = convertToGatewayMessages(
      [
        new HumanMessage({
          content: [
            { type: 'text', text: 'what is this?' },
            { type: 'image', data: 'AAAA', mimeType: 'image/jpeg' },
            { type: 'image_url', image_url: 'https://example.test/a.png' },
          ],
        }),
      ],
      { acceptsContentParts: true },
    );
    expect(user?.content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
      { type: 'image_url', image_url: { url: 'https://example.test/a.png' } },
    ]);
  });

  it('drops tool_call and reasoning blocks from v1 assistant content', () => {
    const [assistant] = convertToGatewayMessages([
      new AIMessage({
        content: [
          { type: 'reasoning', reasoning: 'hmm' },
          { type: 'text', text: 'calling' },
          { type: 'tool_call', id: 'c1', name: 'f', args: {} },
        ],
        tool_calls: [{ id: 'c1', name: 'f', args: {}, type: 'tool_call' }],
      }),
    ]);
    expect(assistant).toEqual({
      role: 'assistant',
      content: 'calling',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
  });

  it('maps generic chat messages by role and refuses unknown roles', () => {
    expect(convertToGatewayMessages([new ChatMessage('x', 'developer')])).toEqual([
      { role: 'system', content: 'x' },
    ]);
    expect(() => convertToGatewayMessages([new ChatMessage('x', 'critic')])).toThrow(
      /messages\[0\]\.role.*critic/,
    );
  });
});
