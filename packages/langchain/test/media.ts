/** A small valid WAV file (8 kHz, 8-bit mono) whose data starts with `SPEECH:<text>`. */
export function wavWithSpeech(text: string, seconds = 1): Uint8Array {
  const byteRate = 8000;
  const payload = new TextEncoder().encode(`SPEECH:${text}\u0000`);
  const dataSize = Math.max(payload.length, byteRate * seconds);
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
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, 8000, true); // sample rate
  view.setUint32(28, byteRate, true);
  view.setUint16(32, 1, true); // block align
  view.setUint16(34, 8, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, dataSize, true);
  bytes.set(payload, 44);
  return bytes;
}

/** PNG magic bytes followed by `TEXT:<text>`: the emulator's OCR reads that text. */
export function pngWithText(text: string): Uint8Array {
  const magic = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return new Uint8Array([...magic, ...new TextEncoder().encode(`TEXT:${text}\u0000`)]);
}
