// Writes the two small media files the examples send to the gateway:
//   assets/memo.wav    0.4 s of a 440 Hz tone, 8 kHz mono 16-bit PCM, with a LIST/INFO comment
//   assets/invoice.png "INVOICE 42" in block letters, with a private ancillary chunk
// Both stay valid files for any player or decoder. The emulator answers with the text after the
// `SPEECH:` / `TEXT:` markers they carry; a real gateway transcribes or reads what is really there.
// Run: node scripts/make-fixtures.ts
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { IMAGE_TEXT, SPOKEN_TEXT } from '../src/assets.ts';

function u32le(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value);
  return b;
}

function riffChunk(id: string, body: Buffer): Buffer {
  const pad = body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0);
  return Buffer.concat([Buffer.from(id, 'ascii'), u32le(body.length), body, pad]);
}

function wav(): Buffer {
  const rate = 8000;
  const samples = Math.round(rate * 0.4);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const fade = Math.min(1, i / 400, (samples - i) / 400);
    pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000 * fade), i * 2);
  }
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0); // PCM
  fmt.writeUInt16LE(1, 2); // mono
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE(rate * 2, 8); // byte rate
  fmt.writeUInt16LE(2, 12); // block align
  fmt.writeUInt16LE(16, 14); // bits per sample
  const comment = Buffer.from(`SPEECH:${SPOKEN_TEXT}\0`, 'utf8');
  const info = Buffer.concat([Buffer.from('INFO', 'ascii'), riffChunk('ICMT', comment)]);
  const body = Buffer.concat([
    Buffer.from('WAVE', 'ascii'),
    riffChunk('fmt ', fmt),
    riffChunk('data', pcm),
    riffChunk('LIST', info),
  ]);
  return Buffer.concat([Buffer.from('RIFF', 'ascii'), u32le(body.length), body]);
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

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function png(): Buffer {
  const scale = 4;
  const margin = 8;
  const cols = IMAGE_TEXT.length * 6 - 1;
  const width = cols * scale + margin * 2;
  const height = 7 * scale + margin * 2;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width, 0xff); // filter byte 0, then white greyscale pixels
    row[0] = 0;
    const gy = Math.floor((y - margin) / scale);
    for (let x = 0; x < width; x++) {
      const gx = Math.floor((x - margin) / scale);
      if (y < margin || x < margin || gy > 6 || gx >= cols) continue;
      const glyph = GLYPHS[IMAGE_TEXT[Math.floor(gx / 6)]!]!;
      if (glyph[gy]?.[gx % 6] === '#') row[1 + x] = 0x00;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    // A private ancillary chunk ("ocRt"): decoders skip it; the emulator reads the marker in it.
    pngChunk('ocRt', Buffer.from(`TEXT:${IMAGE_TEXT}\0`, 'utf8')),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const assets = new URL('../assets/', import.meta.url);
writeFileSync(new URL('memo.wav', assets), wav());
writeFileSync(new URL('invoice.png', assets), png());
console.log('wrote assets/memo.wav and assets/invoice.png');
