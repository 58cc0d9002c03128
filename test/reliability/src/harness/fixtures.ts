/** Media the emulator understands: a WAV whose data carries `SPEECH:<text>`, a PNG carrying `TEXT:<text>`. */
export function wavWithSpeech(text: string, dataBytes = 800): Uint8Array {
  const payload = new TextEncoder().encode(`SPEECH:${text}\u0000`);
  const dataSize = Math.max(payload.length, dataBytes);
  const bytes = new Uint8Array(44 + dataSize);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, value: string) => {
    for (let i = 0; i < value.length; i++) bytes[at + i] = value.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataSize, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  ascii(36, 'data');
  view.setUint32(40, dataSize, true);
  bytes.set(payload, 44);
  return bytes;
}

export function pngWithText(text: string): Uint8Array {
  const magic = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return new Uint8Array([...magic, ...new TextEncoder().encode(`TEXT:${text}\u0000`)]);
}

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
export const PNG = pngWithText(EXPECTED.ocr);
export const WAV = wavWithSpeech(EXPECTED.transcription);
