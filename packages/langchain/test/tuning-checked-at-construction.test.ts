// A bad `timeout` / `maxRetries` on a LangChain object is refused as it is made, naming the field
// the user wrote, with a shared client as without one (a shared client checks none of them, and
// every call failed on a `timeoutMs (call option)` never written).
import { createGatewayClient } from '@infergate/core';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import {
  GatewayAudioTranscriptLoader,
  GatewayChatModel,
  GatewayEmbeddings,
  GatewayOcrLoader,
  GatewayTranslator,
} from '../src';
import { createTranslateTool } from '../src/tools';

type Make = (fields: Record<string, unknown>) => unknown;

const objects: [string, Make][] = [
  ['GatewayTranslator', (f) => new GatewayTranslator({ targetLanguage: 'uk', ...f })],
  ['createTranslateTool', (f) => createTranslateTool(f)],
  ['GatewayEmbeddings', (f) => new GatewayEmbeddings({ model: 'all-minilm-l6-v2', ...f })],
  ['GatewayOcrLoader', (f) => new GatewayOcrLoader({ image: new Uint8Array([1]), ...f })],
  [
    'GatewayAudioTranscriptLoader',
    (f) => new GatewayAudioTranscriptLoader({ audio: wavWithSpeech('hi', { seconds: 1 }), ...f }),
  ],
  ['GatewayChatModel', (f) => new GatewayChatModel({ model: 'community/general', ...f })],
];

const bad: [Record<string, unknown>, string, string][] = [
  [{ timeout: -5 }, 'timeout', 'must be a finite number of ms > 0, got -5'],
  [{ maxRetries: 1.5 }, 'maxRetries', 'must be an integer ≥ 0, got 1.5'],
];

describe('a bad timeout or maxRetries is refused at construction, naming the field written', () => {
  for (const [name, make] of objects) {
    it.each(bad)(`${name} with %j: shared client and own alike`, async (tuning, field, rule) => {
      const gateway = await emulate();
      const client = createGatewayClient(gateway.connection);
      for (const connection of [{ client }, gateway.connection]) {
        const error = await caught(async () => make({ ...connection, ...tuning }));
        expect(error).toMatchObject({ code: 'configuration_error', field });
        expect((error as Error).message).toMatch(new RegExp(`^${field} \\(\\w+ option\\) `));
        expect((error as Error).message).toContain(rule);
      }
      expect(gateway.counters.requests).toMatchObject({ chat: 0, translations: 0, ocr: 0 });
    });
  }

  it('a good timeout and maxRetries with a shared client are taken', async () => {
    const { connection } = await emulate();
    const client = createGatewayClient(connection);
    const translator = new GatewayTranslator({
      client,
      targetLanguage: 'uk',
      timeout: 5000,
      maxRetries: 0,
    });
    expect(await translator.invoke('hi')).toBe('[uk] hi');
  });
});
