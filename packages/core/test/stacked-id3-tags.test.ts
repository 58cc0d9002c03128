import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/errors/errors';
import { validateTranscriptionRequest } from '../src/services/validate-transcription';

// An ID3v2.4 header with a 20-byte tag after it (syncsafe size 20), then whatever `after` holds.
const id3 = (after: number[]) => [
  0x49,
  0x44,
  0x33,
  4,
  0,
  0,
  0,
  0,
  0,
  20,
  ...new Array(20).fill(0),
  ...after,
];
const FLAC = [0x66, 0x4c, 0x61, 0x43, 0, 0, 0, 34];
const MP3_FRAME = [0xff, 0xfb, 0x90, 0x64];
const OGG = [0x4f, 0x67, 0x67, 0x53, 0, 2];
const AAC = [0xff, 0xf1, 0x50, 0x80];

async function formatOf(bytes: number[]) {
  try {
    return (await validateTranscriptionRequest({ audio: new Blob([new Uint8Array(bytes)]) }))
      .format;
  } catch (error) {
    if (isGatewayError(error)) return `refused: ${error.message}`;
    throw error;
  }
}

describe('audio behind two ID3 tags', () => {
  it('is told by the first frame behind the last tag, as behind one', async () => {
    expect(await formatOf(id3(id3(FLAC)))).toBe('flac');
    expect(await formatOf(id3(id3(MP3_FRAME)))).toBe('mp3');
    expect(await formatOf(id3(id3(OGG)))).toContain('refused: audio: is not WAV, MP3 or FLAC');
    expect(await formatOf(id3(id3(AAC)))).toContain('then ff f1 50 80');
  });

  it('takes more stacked tags than a tagger writes, and a file cut inside them, as MP3', async () => {
    let bytes = FLAC;
    for (let i = 0; i < 9; i++) bytes = id3(bytes);
    expect(await formatOf(bytes)).toBe('mp3');
    expect(await formatOf(id3(id3([])).slice(0, 32))).toBe('mp3');
  });
});
