import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

/** What each endpoint is asked in the matrix, and the whole answer it must give on success. */
export const PROMPT = 'hello matrix';
export const EXPECTED = {
  chat: `Echo: ${PROMPT}`,
  embeddings: '3x768',
  translation: '[uk] hello',
  ocr: 'Invoice 42',
  transcription: 'hello world',
} as const;
export const EMBED_TEXTS = ['alpha beta', 'gamma delta', 'epsilon'];
export const EMBED_ENGINE = 'multilingual-e5-base';
/** Media the emulator understands: a 0.1 s WAV that says, and a PNG that shows, the expected text. */
export const PNG = pngWithText(EXPECTED.ocr);
export const WAV = wavWithSpeech(EXPECTED.transcription, { seconds: 0.1 });
