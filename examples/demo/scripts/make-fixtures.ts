// Writes the two small media files the demo sends to the gateway (examples/ai-sdk-node's
// assets/memo.wav is a copy of the WAV):
//   assets/memo.wav    0.4 s of a 440 Hz tone, 8 kHz mono 16-bit PCM, with a LIST/INFO comment
//   assets/invoice.png "INVOICE 42" in block letters, with a private ancillary chunk
// Both stay valid files for any player or decoder. They are built by @infergate/emulator's
// fixtures, so they carry the `SPEECH:` / `TEXT:` markers the emulator answers with; a real
// gateway transcribes or reads what is really there (the tone, the block letters drawn here).
// Run: node --experimental-strip-types scripts/make-fixtures.ts
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { IMAGE_TEXT, SPOKEN_TEXT } from '../src/assets.ts';

/** 0.4 s of a 440 Hz tone at 8 kHz, faded in and out. */
function tone(): Int16Array {
  const rate = 8000;
  const samples = Math.round(rate * 0.4);
  return Int16Array.from({ length: samples }, (_, i) => {
    const fade = Math.min(1, i / 400, (samples - i) / 400);
    return Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000 * fade);
  });
}

// 5×7 glyphs, one string of 7 rows per character ('#' = ink).
const GLYPHS: Record<string, string[]> = {
  I: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '#####'],
  N: ['#...#', '##..#', '#.#.#', '#..##', '#...#', '#...#', '#...#'],
  V: ['#...#', '#...#', '#...#', '#...#', '#...#', '.#.#.', '..#..'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  C: ['.####', '#....', '#....', '#....', '#....', '#....', '.####'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  '4': ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
};

/** IMAGE_TEXT in black block letters on white, as greyscale pixels. */
function invoice(): { width: number; height: number; pixels: Uint8Array } {
  const scale = 4;
  const margin = 8;
  const cols = IMAGE_TEXT.length * 6 - 1;
  const width = cols * scale + margin * 2;
  const height = 7 * scale + margin * 2;
  const pixels = new Uint8Array(width * height).fill(0xff);
  for (let y = margin; y < height - margin; y++) {
    const gy = Math.floor((y - margin) / scale);
    for (let x = margin; x < width - margin; x++) {
      const gx = Math.floor((x - margin) / scale);
      const glyph = GLYPHS[IMAGE_TEXT[Math.floor(gx / 6)]!]!;
      if (glyph[gy]?.[gx % 6] === '#') pixels[y * width + x] = 0x00;
    }
  }
  return { width, height, pixels };
}

const assets = new URL('../assets/', import.meta.url);
writeFileSync(new URL('memo.wav', assets), wavWithSpeech(SPOKEN_TEXT, { samples: tone() }));
writeFileSync(
  new URL('invoice.png', assets),
  pngWithText(IMAGE_TEXT, { ...invoice(), deflate: deflateSync }),
);
console.log('wrote assets/memo.wav and assets/invoice.png');
