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

  it("a transcript piped into GatewayTranslator is labelled as the loader's translate: true labels it", async () => {
    const { connection } = await emulate();
    const audio = () => wavWithSpeech('Добрий день', { seconds: 1 });
    const [transcript] = await new GatewayAudioTranscriptLoader({
      ...connection,
      audio: audio(),
      language: 'uk',
    }).load();
    const translator = new GatewayTranslator<Document>({ ...connection, targetLanguage: 'en' });
    const piped = await translator.invoke(transcript as Document);
    const [direct] = await new GatewayAudioTranscriptLoader({
      ...connection,
      audio: audio(),
      language: 'uk',
      translate: true,
    }).load();
    // The text is English: `language` says so (it was the speech's 'uk', kept from the input).
    expect(piped.metadata).toEqual({ ...direct?.metadata });
    expect(piped.metadata).toEqual({
      language: 'en',
      source_language: 'uk',
      target_language: 'en',
      duration: 1,
    });
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
