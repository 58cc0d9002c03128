import { createGatewayClient, type GatewayClient, GatewayError } from '@infergate/core';
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayEmbeddings, GatewayTranslator } from '../src';
import { GatewayAudioTranscriptLoader, GatewayOcrLoader } from '../src/loaders';
import { createTranslateTool } from '../src/tools';

/** A 429 whose Retry-After (5 s) cannot fit in the 1.5 s deadline the runnable is given. */
async function busyFor5s(endpoint: 'translations' | 'ocr' | 'transcriptions' | 'embeddings') {
  const gateway = await emulate();
  gateway.emulator.injectFault({ fault: 'model_busy', endpoint, times: 1, retryAfter: 5 });
  return gateway;
}

/** The gateway's answer, kept: a caller (or toolRetryMiddleware) can schedule on it. */
function expectBusyAnswer(error: unknown): void {
  expect(error).toBeInstanceOf(GatewayError);
  expect(error).toMatchObject({
    code: 'model_busy',
    retryAfterMs: 5000,
    lc_error_code: 'MODEL_RATE_LIMIT',
  });
}

describe("a call's timeout reaches core as the deadline, for every runnable (as the chat model's)", () => {
  it('a tool invoked with { timeout } fails at once with the 429, not after the timeout', async () => {
    const { connection } = await busyFor5s('translations');
    const tool = createTranslateTool(connection);
    expectBusyAnswer(
      await caught(tool.invoke({ text: 'hi', target_language: 'uk' }, { timeout: 1500 })),
    );
  });

  it('the translator invoked with { timeout } fails at once with the 429', async () => {
    const { connection } = await busyFor5s('translations');
    const translator = new GatewayTranslator({ ...connection, targetLanguage: 'uk' });
    expectBusyAnswer(await caught(translator.invoke('hi', { timeout: 1500 })));
  });
});

describe('with a shared client, the timeout and maxRetries of each object apply to its calls', () => {
  it.each([
    {
      name: 'the OCR loader',
      endpoint: 'ocr' as const,
      loader: (client: GatewayClient) =>
        new GatewayOcrLoader({ client, timeout: 1500, image: pngWithText('Invoice 42') }),
    },
    {
      name: 'the transcript loader',
      endpoint: 'transcriptions' as const,
      loader: (client: GatewayClient) =>
        new GatewayAudioTranscriptLoader({
          client,
          timeout: 1500,
          audio: wavWithSpeech('hello there'),
        }),
    },
  ])('$name: its timeout is the deadline of load()', async ({ endpoint, loader }) => {
    const { connection } = await busyFor5s(endpoint);
    expectBusyAnswer(await caught(loader(createGatewayClient(connection)).load()));
  });

  it('embeddings: their timeout is the deadline of each call', async () => {
    const { connection } = await busyFor5s('embeddings');
    const embeddings = new GatewayEmbeddings({
      client: createGatewayClient(connection),
      timeout: 1500,
      model: 'multilingual-e5-base',
    });
    expectBusyAnswer(await caught(embeddings.embedQuery('hi')));
  });

  it('a tool and the translator with maxRetries: 0 send one request', async () => {
    const { connection, emulator } = await emulate();
    const client = createGatewayClient(connection);
    emulator.injectFault({ fault: 'service_unavailable', endpoint: 'translations', times: 10 });
    const tool = createTranslateTool({ client, maxRetries: 0 });
    await caught(tool.invoke({ text: 'hi', target_language: 'uk' }));
    expect(emulator.counters.requests.translations).toBe(1);

    const translator = new GatewayTranslator({ client, maxRetries: 0, targetLanguage: 'uk' });
    await caught(translator.invoke('hi'));
    expect(emulator.counters.requests.translations).toBe(2);
  });
});
