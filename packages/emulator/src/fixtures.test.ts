import { readFileSync } from 'node:fs';
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KEYS } from './default-scenario';
import { createEmulator } from './emulator';
import {
  flacWithSpeech,
  mp3WithSpeech,
  pngWithText,
  wavWithoutSpeech,
  wavWithSpeech,
} from './fixtures';

const emulator = createEmulator();

async function post(path: string, body: Record<string, unknown>) {
  const response = await emulator.fetch(`https://gateway.test/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEFAULT_KEYS.full}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { text: string; duration?: number; confidence?: number };
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const transcribe = (audio: Uint8Array) =>
  post('/audio/transcriptions', { audio_base64: base64(audio) });
const ascii = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length));

/** The chunks of a RIFF file, by id, with their bodies. */
function riffChunks(bytes: Uint8Array, from = 12, to = bytes.length) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: { id: string; body: Uint8Array }[] = [];
  for (let at = from; at + 8 <= to; ) {
    const size = view.getUint32(at + 4, true);
    chunks.push({ id: ascii(bytes, at, 4), body: bytes.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size % 2);
  }
  return chunks;
}

describe('wavWithSpeech', () => {
  it('is transcribed as its text, with the requested duration', async () => {
    expect(await transcribe(wavWithSpeech('Добрий день', { seconds: 0.25 }))).toMatchObject({
      text: 'Добрий день',
      duration: 0.25,
    });
    expect((await transcribe(wavWithSpeech('one second'))).duration).toBe(1);
  });

  it('is a well-formed RIFF file: fmt, silent data, then a LIST/INFO comment', () => {
    const wav = wavWithSpeech('hi', { seconds: 0.5, sampleRate: 16000 });
    const view = new DataView(wav.buffer);
    expect(ascii(wav, 0, 4)).toBe('RIFF');
    expect(view.getUint32(4, true)).toBe(wav.length - 8);
    expect(ascii(wav, 8, 4)).toBe('WAVE');
    const [fmt, data, list] = riffChunks(wav);
    expect(fmt?.id).toBe('fmt ');
    expect(new DataView(fmt!.body.buffer, fmt!.body.byteOffset).getUint32(4, true)).toBe(16000);
    expect(data?.id).toBe('data');
    expect(data?.body.length).toBe(16000);
    expect(data?.body.every((byte) => byte === 0)).toBe(true);
    expect(list?.id).toBe('LIST');
    expect(ascii(list!.body, 0, 4)).toBe('INFO');
    const comment = riffChunks(list!.body, 4)[0];
    expect(comment?.id).toBe('ICMT');
    expect(new TextDecoder().decode(comment?.body)).toBe('SPEECH:hi\0');
  });

  it('takes the samples to play', async () => {
    const samples = Int16Array.from([0, 1000, -1000, 32767]);
    const wav = wavWithSpeech('tone', { samples });
    const data = riffChunks(wav)[1]!.body;
    expect(Array.from(new Int16Array(data.slice().buffer))).toEqual([0, 1000, -1000, 32767]);
    expect(await transcribe(wav)).toMatchObject({ text: 'tone', duration: 0.001 });
  });

  it('refuses a negative length', () => {
    expect(() => wavWithSpeech('x', { seconds: -1 })).toThrow(/seconds must be .* got -1/);
  });
});

describe('wavWithoutSpeech', () => {
  it('is described by the emulator instead of transcribed', async () => {
    expect(await transcribe(wavWithoutSpeech({ seconds: 1.5 }))).toMatchObject({
      text: '[WAV audio, 1.5 s]',
      duration: 1.5,
    });
  });
});

describe('mp3WithSpeech', () => {
  it('is an ID3-tagged MP3 the emulator transcribes, about `seconds` long', async () => {
    const mp3 = mp3WithSpeech('hello mp3', { seconds: 2 });
    expect(ascii(mp3, 0, 3)).toBe('ID3');
    const body = await transcribe(mp3);
    expect(body.text).toBe('hello mp3');
    expect(body.duration).toBeCloseTo(2, 1);
  });

  it('follows its tag with MPEG frame headers', () => {
    const mp3 = mp3WithSpeech('x');
    const tagSize = 10 + ((mp3[6]! << 21) | (mp3[7]! << 14) | (mp3[8]! << 7) | mp3[9]!);
    expect(Array.from(mp3.subarray(tagSize, tagSize + 4))).toEqual([0xff, 0xfb, 0x90, 0xc0]);
    expect((mp3.length - tagSize) % 417).toBe(0);
  });
});

describe('flacWithSpeech', () => {
  it('is a FLAC stream the emulator transcribes with its STREAMINFO duration', async () => {
    const flac = flacWithSpeech('hello flac', { seconds: 3 });
    expect(ascii(flac, 0, 4)).toBe('fLaC');
    expect(await transcribe(flac)).toMatchObject({ text: 'hello flac', duration: 3 });
  });
});

describe('pngWithText', () => {
  /** The chunks of a PNG, each checked against its CRC. */
  function pngChunks(png: Uint8Array) {
    const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
    const chunks: { type: string; data: Uint8Array }[] = [];
    for (let at = 8; at < png.length; ) {
      const length = view.getUint32(at);
      const typed = png.subarray(at + 4, at + 8 + length);
      expect(view.getUint32(at + 8 + length)).toBe(crc32(typed));
      chunks.push({ type: ascii(typed, 0, 4), data: typed.subarray(4) });
      at += 12 + length;
    }
    return chunks;
  }

  it('is read by the OCR as its text', async () => {
    expect(await post('/ocr', { image_base64: base64(pngWithText('Рахунок № 42')) })).toMatchObject(
      { text: 'Рахунок № 42', confidence: 0.98 },
    );
  });

  it('is a valid PNG: signature, IHDR, the marker chunk, IDAT that inflates to the pixels, IEND', () => {
    const pixels = Uint8Array.from({ length: 3 * 2 }, (_, i) => i * 40);
    const png = pngWithText('scan', { width: 3, height: 2, pixels });
    expect(Array.from(png.subarray(0, 8))).toEqual([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
    ]);
    const chunks = pngChunks(png);
    expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'ocRt', 'IDAT', 'IEND']);
    const header = new DataView(chunks[0]!.data.buffer, chunks[0]!.data.byteOffset);
    expect([header.getUint32(0), header.getUint32(4), header.getUint8(8)]).toEqual([3, 2, 8]);
    expect(new TextDecoder().decode(chunks[1]!.data)).toBe('TEXT:scan\0');
    expect(Array.from(inflateSync(chunks[2]!.data))).toEqual([0, 0, 40, 80, 0, 120, 160, 200]);
  });

  it('splits large images into several stored deflate blocks', () => {
    const width = 400;
    const height = 300; // 120 300 bytes of rows: two blocks
    const pixels = Uint8Array.from({ length: width * height }, (_, i) => i % 251);
    const idat = pngChunks(pngWithText('big', { width, height, pixels }))[2]!.data;
    const rows = inflateSync(idat);
    expect(rows.length).toBe((width + 1) * height);
    expect(Array.from(rows.subarray(width + 2, width + 5))).toEqual([
      width % 251,
      (width + 1) % 251,
      (width + 2) % 251,
    ]);
  });

  it('compresses its pixels with the given deflate', () => {
    const pixels = new Uint8Array(200 * 100).fill(0xff);
    const stored = pngWithText('white', { width: 200, height: 100, pixels });
    const compressed = pngWithText('white', {
      width: 200,
      height: 100,
      pixels,
      deflate: deflateSync,
    });
    expect(compressed.length).toBeLessThan(stored.length / 10);
    expect(inflateSync(pngChunks(compressed)[2]!.data)).toEqual(
      inflateSync(pngChunks(stored)[2]!.data),
    );
  });

  it('refuses pixels that do not match the size', () => {
    expect(() => pngWithText('x', { width: 2, height: 2, pixels: new Uint8Array(3) })).toThrow(
      /pixels has 3 bytes; 2×2 needs 4/,
    );
  });
});

it('uses no Node module, so that fixtures build in browsers and edge runtimes', () => {
  const source = readFileSync(new URL('./fixtures.ts', import.meta.url), 'utf8');
  expect(source).not.toMatch(/from\s+['"]node:|require\(|\bBuffer\b|\bprocess\b/);
});
