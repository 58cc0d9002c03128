import { GatewayTranslator } from '@infergate/langchain';
import { transcribe } from 'ai';
import { IMAGE_TEXT, readAsset, SPOKEN_TEXT } from '../assets.ts';
import { line, ok } from '../terminal.ts';
import { expect, type Step } from '../tour.ts';

export const translation: Step = {
  title: 'Translation',
  what: 'GatewayTranslator (a LangChain Runnable) on the translation service: English → Ukrainian.',
  async run(tour) {
    const translator = new GatewayTranslator({ targetLanguage: 'uk', client: tour.client });
    const text = 'Good morning! The invoice is due on Friday.';
    const translated = await translator.invoke(text);
    line(`en: ${text}`);
    line(`uk: ${translated}`);
    expect(translated.length > 0, 'a translation came back');
    ok('translated');
  },
};

export const ocr: Step = {
  title: 'Text from an image (OCR)',
  what: 'The AI SDK provider’s ocr helper on a bundled PNG that shows "INVOICE 42".',
  async run(tour) {
    const image = await readAsset('invoice.png');
    const { text, confidence } = await tour.gateway.ocr({ image });
    line(`read: ${text}`);
    // The emulator reads the text the fixture carries; a real engine reads the pixels.
    if (tour.emulator) expect(text === IMAGE_TEXT, `the text is "${IMAGE_TEXT}"`);
    ok(`confidence ${confidence ?? 'not reported'}`);
  },
};

export const transcription: Step = {
  title: 'Speech to text',
  what: 'AI SDK transcribe() with the gateway’s transcription model on a bundled 0.4 s WAV.',
  async run(tour) {
    const audio = await readAsset('memo.wav');
    const { text, language, durationInSeconds } = await transcribe({
      model: tour.gateway.transcriptionModel(),
      audio,
    });
    line(`heard: ${text || '(nothing)'}`);
    if (tour.emulator) expect(text === SPOKEN_TEXT, 'the transcript is the fixture’s text');
    else line('(the bundled WAV is a short tone: a real engine may hear nothing in it)');
    ok(`language ${language ?? '?'}, ${durationInSeconds ?? '?'} s of audio`);
  },
};
