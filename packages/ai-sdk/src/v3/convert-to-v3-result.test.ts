import type {
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { toV3GenerateResult, toV3Stream, toV3Warnings } from './convert-to-v3-result';

const usage = {
  inputTokens: { total: 2, noCache: 2, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 3, text: 3, reasoning: undefined },
};

/** The finish reason of a V4 result as V3 gives it. */
function toV3FinishReason(finishReason: LanguageModelV4FinishReason) {
  return toV3GenerateResult({ content: [], finishReason, usage, warnings: [] }).finishReason;
}

async function convertStream(parts: LanguageModelV4StreamPart[]) {
  const source = new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  const out = [];
  for await (const part of toV3Stream(source)) out.push(part);
  return out;
}

describe('V4 results as V3', () => {
  it('turns a deprecated warning into an other warning with the same words', () => {
    expect(
      toV3Warnings([
        { type: 'unsupported', feature: 'topK' },
        { type: 'deprecated', setting: 'oldOption', message: 'use newOption' },
      ]),
    ).toEqual([
      { type: 'unsupported', feature: 'topK' },
      { type: 'other', message: 'oldOption is deprecated: use newOption' },
    ]);
  });

  it('reports interrupted as other, keeping the raw reason', () => {
    expect(toV3FinishReason({ unified: 'interrupted', raw: undefined })).toEqual({
      unified: 'other',
      raw: 'interrupted',
    });
    expect(toV3FinishReason({ unified: 'tool-calls', raw: 'tool_calls' })).toEqual({
      unified: 'tool-calls',
      raw: 'tool_calls',
    });
  });

  it('keeps text, reasoning and tool calls; leaves out what V3 cannot carry with a warning each', () => {
    const result: LanguageModelV4GenerateResult = {
      content: [
        { type: 'reasoning', text: 'thinking' },
        { type: 'text', text: 'hi', citations: [] },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: '{}' },
        { type: 'custom', kind: 'infergate.note' },
        {
          type: 'file',
          mediaType: 'image/png',
          data: { type: 'url', url: new URL('https://x.test/a.png') },
        },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AQID' } },
      ],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      providerMetadata: { infergate: { servedModel: 'm' } },
      request: { url: 'https://gateway.test/v1/chat/completions', body: { model: 'm' } },
      warnings: [],
    };
    const v3 = toV3GenerateResult(result);
    expect(v3.content).toEqual([
      { type: 'reasoning', text: 'thinking' },
      { type: 'text', text: 'hi' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: '{}' },
      { type: 'file', mediaType: 'image/png', data: 'AQID', providerMetadata: undefined },
    ]);
    expect(v3.warnings).toEqual([
      { type: 'other', message: expect.stringContaining('custom content "infergate.note"') },
      { type: 'other', message: expect.stringContaining('a file answered by URL (image/png)') },
    ]);
    expect(v3.usage).toBe(usage);
    expect(v3.request).toEqual({ body: { model: 'm' } });
    expect(v3.providerMetadata).toEqual({ infergate: { servedModel: 'm' } });
  });

  it('streams: drops ping, strips V4-only fields, maps finish, fails loudly on a part V3 cannot carry', async () => {
    const parts = await convertStream([
      { type: 'stream-start', warnings: [{ type: 'deprecated', setting: 's', message: 'm' }] },
      { type: 'ping' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'hi' },
      { type: 'text-end', id: 't', citations: [] },
      { type: 'tool-input-start', id: 'c1', toolName: 'weather', inputEncoding: 'json' },
      { type: 'tool-input-end', id: 'c1' },
      { type: 'custom', kind: 'infergate.note' },
      { type: 'finish', usage, finishReason: { unified: 'interrupted', raw: undefined } },
    ]);
    expect(parts).toEqual([
      { type: 'stream-start', warnings: [{ type: 'other', message: 's is deprecated: m' }] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'hi' },
      { type: 'text-end', id: 't' },
      { type: 'tool-input-start', id: 'c1', toolName: 'weather' },
      { type: 'tool-input-end', id: 'c1' },
      {
        type: 'error',
        error: expect.objectContaining({ message: expect.stringContaining('custom content') }),
      },
      {
        type: 'finish',
        usage,
        finishReason: { unified: 'other', raw: 'interrupted' },
        providerMetadata: undefined,
      },
    ]);
  });

  it('streams: cancelling the V3 stream cancels the V4 stream it reads, with the reason', async () => {
    let cancelled: unknown;
    const source = new ReadableStream<LanguageModelV4StreamPart>({
      pull(controller) {
        controller.enqueue({ type: 'text-delta', id: 't', delta: 'more' });
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const reader = toV3Stream(source).getReader();
    expect((await reader.read()).value).toEqual({ type: 'text-delta', id: 't', delta: 'more' });
    await reader.cancel('the consumer left');
    expect(cancelled).toBe('the consumer left');
  });

  it("streams: the V4 stream's failure fails the V3 stream with the same error", async () => {
    const failure = new Error('the body was cut');
    const source = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        controller.error(failure);
      },
    });
    await expect(toV3Stream(source).getReader().read()).rejects.toBe(failure);
  });
});
