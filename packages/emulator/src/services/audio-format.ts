// docs/gateway-protocol.md §9 (WAV, MP3 or FLAC, by their first bytes).
export type AudioFormat = 'wav' | 'mp3' | 'flac';

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** WAV, MP3 or FLAC told apart by their magic bytes; undefined for anything else. */
export function detectAudioFormat(bytes: Uint8Array): AudioFormat | undefined {
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') {
    return 'wav';
  }
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'fLaC') return 'flac';
  if (bytes.length >= 3 && ascii(bytes, 0, 3) === 'ID3') return 'mp3';
  if (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0) return 'mp3';
  return undefined;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Seconds of audio in a WAV file: data chunk size / byte rate from the `fmt ` chunk. */
function wavDuration(bytes: Uint8Array): number {
  const data = view(bytes);
  let byteRate = 0;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = ascii(bytes, offset, 4);
    const size = data.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ' && body + 12 <= bytes.length) byteRate = data.getUint32(body + 8, true);
    if (id === 'data') {
      const available = Math.min(size, bytes.length - body);
      return byteRate > 0 ? available / byteRate : 0;
    }
    offset = body + size + (size % 2);
  }
  return 0;
}

/** Seconds of audio in a FLAC file, from STREAMINFO (sample rate and total samples). */
function flacDuration(bytes: Uint8Array): number {
  if (bytes.length < 8 + 18) return 0;
  const info = 8; // after "fLaC" and the 4-byte metadata block header
  const data = view(bytes);
  const sampleRate = (data.getUint32(info + 10) >>> 12) & 0xfffff;
  const high = bytes[info + 13]! & 0x0f;
  const totalSamples = high * 2 ** 32 + data.getUint32(info + 14);
  return sampleRate > 0 ? totalSamples / sampleRate : 0;
}

/** Duration in seconds: exact for WAV and FLAC headers, estimated at 128 kbit/s for MP3. */
export function audioDuration(format: AudioFormat, bytes: Uint8Array): number {
  const seconds =
    format === 'wav'
      ? wavDuration(bytes)
      : format === 'flac'
        ? flacDuration(bytes)
        : (bytes.length * 8) / 128_000;
  return Math.round(seconds * 1000) / 1000;
}
