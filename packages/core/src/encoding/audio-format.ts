// docs/gateway-protocol.md §9 (WAV, MP3 or FLAC, by their first bytes).
export type AudioFormat = 'wav' | 'mp3' | 'flac';

export const AUDIO_MIME_TYPES: Record<AudioFormat, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
};

function ascii(bytes: Uint8Array, offset: number, text: string): boolean {
  if (bytes.length < offset + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

/**
 * Detects WAV (`RIFF....WAVE`), FLAC (`fLaC`) and MP3 (an `ID3` tag, or an MPEG audio frame sync
 * for layers I-III) from the first bytes of a file. Returns undefined for anything else. (What
 * follows an `ID3` tag may be FLAC, or no format taken at all: validate-transcription.ts looks.)
 */
export function detectAudioFormat(head: Uint8Array): AudioFormat | undefined {
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return 'wav';
  if (ascii(head, 0, 'fLaC')) return 'flac';
  if (ascii(head, 0, 'ID3')) return 'mp3';
  const b0 = head[0];
  const b1 = head[1];
  // 11 sync bits, a version other than "reserved" (01), a layer other than "reserved" (00, used by AAC ADTS).
  if (
    b0 === 0xff &&
    b1 !== undefined &&
    (b1 & 0xe0) === 0xe0 &&
    (b1 & 0x18) !== 0x08 &&
    (b1 & 0x06) !== 0
  ) {
    return 'mp3';
  }
  return undefined;
}

/**
 * Where the audio after a leading ID3v2 tag starts: its 10-byte header, the syncsafe size of bytes
 * 6–9, a 10-byte footer when flag 0x10 is set. (Taggers put one in front of FLAC files too.)
 */
export function id3TagEnd(h: Uint8Array): number {
  const size = ((h[6]! & 127) << 21) | ((h[7]! & 127) << 14) | ((h[8]! & 127) << 7) | (h[9]! & 127);
  return 10 + size + (h[5]! & 16 ? 10 : 0);
}

export function describeHead(head: Uint8Array): string {
  return (
    Array.from(head.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ') || 'no bytes'
  );
}
