import { describe, expect, it } from 'vitest';
import { convertV3CallOptions } from './convert-v3-call-options';

describe('convertV3CallOptions', () => {
  it('says which kind of file data a V3 part holds', () => {
    const url = new URL('https://example.test/cat.png');
    const bytes = new Uint8Array([1, 2, 3]);
    const { prompt } = convertV3CallOptions({
      prompt: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'file', mediaType: 'image/png', data: url },
            { type: 'file', mediaType: 'image/png', data: bytes },
            { type: 'file', mediaType: 'image/png', data: 'AQID' },
          ],
        },
      ],
    });
    expect(prompt[0]?.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'file', mediaType: 'image/png', data: { type: 'url', url } },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: bytes } },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AQID' } },
    ]);
  });

  it('keeps content tool results readable: text items as they are, other items as their JSON', () => {
    const imageItem = { type: 'image-url' as const, url: 'https://example.test/chart.png' };
    const { prompt } = convertV3CallOptions({
      prompt: [
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'chart',
              output: { type: 'content', value: [{ type: 'text', text: 'a chart' }, imageItem] },
            },
            {
              type: 'tool-result',
              toolCallId: 'c2',
              toolName: 'sum',
              output: { type: 'json', value: 3 },
            },
          ],
        },
      ],
    });
    expect(prompt[0]?.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'chart',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: 'a chart' },
            { type: 'text', text: JSON.stringify(imageItem) },
          ],
        },
      },
      {
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'sum',
        output: { type: 'json', value: 3 },
      },
    ]);
  });

  it('passes every other call option unchanged', () => {
    const signal = new AbortController().signal;
    const options = convertV3CallOptions({
      prompt: [{ role: 'system', content: 'be brief' }],
      temperature: 0.5,
      topK: 3,
      seed: 7,
      abortSignal: signal,
      responseFormat: { type: 'json', schema: { type: 'object' } },
      providerOptions: { infergate: { user: 'u1' } },
    });
    expect(options).toEqual({
      prompt: [{ role: 'system', content: 'be brief' }],
      temperature: 0.5,
      topK: 3,
      seed: 7,
      abortSignal: signal,
      responseFormat: { type: 'json', schema: { type: 'object' } },
      providerOptions: { infergate: { user: 'u1' } },
    });
  });
});
