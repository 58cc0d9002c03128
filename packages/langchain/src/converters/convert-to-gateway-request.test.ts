import { HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { convertToGatewayRequest, convertToInvocationParams } from './convert-to-gateway-request';

const settings: Parameters<typeof convertToGatewayRequest>[1] = {
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

describe('convertToGatewayRequest', () => {
  it('maps settings to request fields; named settings win over modelKwargs', () => {
    const request = convertToGatewayRequest([new HumanMessage('hi')], settings, {});
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

  it('a call stop wins; the traced params have stream only when the model streams', () => {
    const request = convertToGatewayRequest([new HumanMessage('hi')], settings, { stop: ['STOP'] });
    expect(request.stop).toEqual(['STOP']);
    expect(convertToInvocationParams(settings, { stop: ['STOP'] }, true).stream).toBe(true);
    expect(convertToInvocationParams(settings, { stop: ['STOP'] }, false)).not.toHaveProperty(
      'stream',
    );
  });

  it('sends tool_choice only with tools, and no empty tools list', () => {
    const none = convertToGatewayRequest([new HumanMessage('hi')], settings, {
      tools: [],
      tool_choice: 'any',
    });
    expect(none).not.toHaveProperty('tools');
    expect(none).not.toHaveProperty('tool_choice');
    const some = convertToGatewayRequest([new HumanMessage('hi')], settings, {
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: 'any',
    });
    expect(some.tools).toHaveLength(1);
    expect(some.tool_choice).toBe('required');
  });
});
