import { HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { buildChatRequest, type ChatModelSettings } from './build-chat-request';

const settings: ChatModelSettings = {
  model: 'community/general',
  temperature: 0.3,
  maxTokens: 100,
  topP: 0.9,
  seed: 7,
  stop: ['END'],
  modelKwargs: { temperature: 2, repetition_penalty: 1.1, model: 'other' },
  acceptsContentParts: false,
  sendReasoning: false,
};

describe('buildChatRequest', () => {
  it('maps settings to request fields; named settings win over modelKwargs', () => {
    const request = buildChatRequest([new HumanMessage('hi')], settings, {}, false);
    expect(request).toEqual({
      model: 'community/general',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.3,
      max_tokens: 100,
      top_p: 0.9,
      seed: 7,
      stop: ['END'],
      repetition_penalty: 1.1,
    });
  });

  it('a call stop wins; stream is set only when streaming', () => {
    const request = buildChatRequest([new HumanMessage('hi')], settings, { stop: ['STOP'] }, true);
    expect(request.stop).toEqual(['STOP']);
    expect(request.stream).toBe(true);
  });

  it('sends tool_choice only with tools, and no empty tools list', () => {
    const none = buildChatRequest(
      [new HumanMessage('hi')],
      settings,
      { tools: [], tool_choice: 'any' },
      false,
    );
    expect(none).not.toHaveProperty('tools');
    expect(none).not.toHaveProperty('tool_choice');
    const some = buildChatRequest(
      [new HumanMessage('hi')],
      settings,
      {
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
        tool_choice: 'any',
      },
      false,
    );
    expect(some.tools).toHaveLength(1);
    expect(some.tool_choice).toBe('required');
  });
});
