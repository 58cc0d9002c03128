import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { Document } from '@langchain/core/documents';
import { describe, expect, it } from 'vitest';
import { GatewayAudioTranscriptLoader, GatewayTranslator } from '../src';

describe('GatewayAudioTranscriptLoader({ translate: true }) labels the English text', () => {
  it("language is the text's (en), the speech's is source_language, as GatewayTranslator", async () => {
    const { connection } = await emulate();
    const audio = wavWithSpeech('Добрий день', { seconds: 1 });
    const [translated] = await new GatewayAudioTranscriptLoader({
      ...connection,
      audio,
      translate: true,
    }).load();
    expect(translated?.metadata).toMatchObject({
      language: 'en',
      source_language: 'uk',
      target_language: 'en',
    });

    // The translator's labels, for the same languages.
    const document = await new GatewayTranslator<Document>({
      ...connection,
      targetLanguage: 'en',
    }).invoke(new Document({ pageContent: 'Добрий день' }));
    expect(document.metadata).toMatchObject({ source_language: 'uk', target_language: 'en' });
  });

  it('without translate, language stays the speech’s and nothing else is added', async () => {
    const { connection } = await emulate();
    const [transcript] = await new GatewayAudioTranscriptLoader({
      ...connection,
      audio: wavWithSpeech('Добрий день', { seconds: 1 }),
    }).load();
    expect(transcript?.metadata).toEqual({ language: 'uk', duration: 1 });
  });
});
