import { describe, expect, it } from 'vitest';
import { buildChatRequest, streamedChatRequest } from './build-chat-request';

const messages = [{ role: 'user' as const, content: 'hi' }];
const tool = { type: 'function' as const, function: { name: 'weather' } };

describe('buildChatRequest', () => {
  it('maps the sampling options to their wire names and sends nothing undefined', () => {
    expect(
      buildChatRequest({
        model: 'm',
        messages,
        temperature: 0,
        maxTokens: 10,
        topP: 0.9,
        stop: ['\n'],
        seed: 1,
        presencePenalty: 0.5,
        frequencyPenalty: -0.5,
        responseFormat: { type: 'json_object' },
      }),
    ).toEqual({
      model: 'm',
      messages,
      temperature: 0,
      max_tokens: 10,
      top_p: 0.9,
      stop: ['\n'],
      seed: 1,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      response_format: { type: 'json_object' },
    });
    expect(buildChatRequest({ model: 'm', messages, temperature: undefined })).toEqual({
      model: 'm',
      messages,
    });
  });

  it('leaves out an empty stop or tools list, and tool_choice without tools', () => {
    expect(
      buildChatRequest({ model: 'm', messages, stop: [], tools: [], toolChoice: 'required' }),
    ).toEqual({ model: 'm', messages });
    expect(buildChatRequest({ model: 'm', messages, stop: 'END' }).stop).toBe('END');
    expect(
      buildChatRequest({ model: 'm', messages, tools: [tool], toolChoice: 'required' }),
    ).toMatchObject({ tools: [tool], tool_choice: 'required' });
  });

  it('sends reasoningEffort as reasoning_effort, the value as given', () => {
    expect(buildChatRequest({ model: 'm', messages, reasoningEffort: 'high' })).toEqual({
      model: 'm',
      messages,
      reasoning_effort: 'high',
    });
    expect(
      buildChatRequest({
        model: 'm',
        messages,
        reasoningEffort: 'max',
        extraFields: { reasoning_effort: 'low' },
      }).reasoning_effort,
    ).toBe('max');
  });

  it('passes extra fields on, the named options winning; never stream', () => {
    expect(
      buildChatRequest({
        model: 'm',
        messages,
        temperature: 0.5,
        extraFields: { temperature: 2, user: 'u-1', model: 'other', stream: true },
      }),
    ).toEqual({ model: 'm', messages, temperature: 0.5, user: 'u-1' });
  });

  describe('streamedChatRequest', () => {
    const request = { model: 'm', messages };

    it('streams and asks for usage', () => {
      expect(streamedChatRequest({ ...request, stream: false }, true)).toEqual({
        ...request,
        stream: true,
        stream_options: { include_usage: true },
      });
    });

    it('does not ask with streamUsage false', () => {
      expect(streamedChatRequest(request, false)).toEqual({ ...request, stream: true });
    });

    it("sends the caller's own stream_options as given", () => {
      const own = { include_usage: false, continuous_usage_stats: true };
      expect(streamedChatRequest({ ...request, stream_options: own }, true).stream_options).toBe(
        own,
      );
    });

    it('leaves the request it was given unchanged', () => {
      const given = { ...request };
      streamedChatRequest(given, true);
      expect(given).toEqual(request);
    });
  });
});
