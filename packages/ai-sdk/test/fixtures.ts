/** A tiny WAV file (8 kHz, 8-bit mono) whose bytes carry `SPEECH:<text>` for the emulator. */
export function wavWithSpeech(text: string, seconds = 1): Uint8Array {
  const marker = new TextEncoder().encode(`SPEECH:${text}\0`);
  const sampleRate = 8000;
  const dataSize = Math.max(sampleRate * seconds, marker.length);
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
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate, true); // byte rate
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  ascii(36, 'data');
  view.setUint32(40, dataSize, true);
  bytes.set(marker, 44);
  return bytes;
}

/** PNG-signed bytes whose content carries `TEXT:<text>` for the emulator's OCR. */
export function pngWithText(text: string): Uint8Array {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const marker = new TextEncoder().encode(`TEXT:${text}\0`);
  const bytes = new Uint8Array(signature.length + marker.length);
  bytes.set(signature, 0);
  bytes.set(marker, signature.length);
  return bytes;
}
