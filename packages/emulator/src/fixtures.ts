// docs/gateway-protocol.md §8 (OCR images), §9 (WAV, MP3 and FLAC audio).
// Media for tests against the emulator. Each file is a well-formed WAV, MP3, FLAC or PNG whose
// bytes also carry the marker the emulator reads (`SPEECH:<text>` for speech to text,
// `TEXT:<text>` for OCR), ended by a NUL byte, in a place decoders skip: a WAV comment, an ID3
// private frame, a FLAC application block, a private PNG chunk. Plain JavaScript only (no
// `node:` modules), so the fixtures build in browsers and edge runtimes too.

import { refuseUnknownOptions } from './field-names';

/** Options of `wavWithSpeech` and `wavWithoutSpeech`. */
export interface WavFixtureOptions {
  /** Length of the audio, silence. Default 1. Ignored when `samples` is given. */
  seconds?: number;
  /** Samples per second. Default 8000. */
  sampleRate?: number;
  /** 16-bit mono PCM samples to use instead of silence (a tone, a recording…). */
  samples?: Int16Array;
}

/** Options of `mp3WithSpeech` and `flacWithSpeech`. */
export interface AudioFixtureOptions {
  /** Length of the audio in seconds. Default 1. */
  seconds?: number;
}

/** Options of `pngWithText`. */
export interface PngFixtureOptions {
  /** Image width in pixels. Default 1. */
  width?: number;
  /** Image height in pixels. Default 1. */
  height?: number;
  /** 8-bit greyscale pixels, row by row (`width × height` bytes). Default: all white. */
  pixels?: Uint8Array;
  /**
   * A zlib compressor for the pixel data, for a smaller file (e.g. `deflateSync` of `node:zlib`).
   * Default: stored, uncompressed deflate blocks, which need no library.
   */
  deflate?: (data: Uint8Array) => Uint8Array;
}

/** The keys of each fixture's options. */
const WAV_OPTION_KEYS = [
  'seconds',
  'sampleRate',
  'samples',
] as const satisfies readonly (keyof WavFixtureOptions)[];
const AUDIO_OPTION_KEYS = ['seconds'] as const satisfies readonly (keyof AudioFixtureOptions)[];
const PNG_OPTION_KEYS = [
  'width',
  'height',
  'pixels',
  'deflate',
] as const satisfies readonly (keyof PngFixtureOptions)[];

const utf8 = new TextEncoder();

/** The marker the emulator looks for, NUL-terminated so that nothing after it joins the text. */
function marker(prefix: 'SPEECH:' | 'TEXT:', text: string): Uint8Array {
  return utf8.encode(`${prefix}${text}\0`);
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** `bytes` bytes whose DataView is filled by `write`. */
function fields(bytes: number, write: (view: DataView) => void): Uint8Array {
  const out = new Uint8Array(bytes);
  write(new DataView(out.buffer));
  return out;
}

/** The requested length (default 1 s), refused when negative or not finite. */
function secondsOf(name: string, options: { seconds?: number }): number {
  const seconds = options.seconds ?? 1;
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new RangeError(`${name}: seconds must be a finite number ≥ 0, got ${seconds}`);
  }
  return seconds;
}

// ---------------------------------------------------------------------------------------- WAV

function riffChunk(id: string, body: Uint8Array): Uint8Array {
  const size = fields(4, (view) => view.setUint32(0, body.length, true));
  const pad = new Uint8Array(body.length % 2);
  return concat([ascii(id), size, body, pad]);
}

function wav(options: WavFixtureOptions, comment?: Uint8Array): Uint8Array<ArrayBuffer> {
  const sampleRate = options.sampleRate ?? 8000;
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new RangeError(`WAV fixture: sampleRate must be a positive integer, got ${sampleRate}`);
  }
  let pcm: Uint8Array;
  if (options.samples) {
    const samples = options.samples;
    pcm = fields(samples.length * 2, (view) => {
      for (const [i, sample] of samples.entries()) view.setInt16(i * 2, sample, true);
    });
  } else {
    const seconds = secondsOf('WAV fixture', options);
    pcm = new Uint8Array(Math.round(seconds * sampleRate) * 2);
  }
  const format = fields(16, (view) => {
    view.setUint16(0, 1, true); // PCM
    view.setUint16(2, 1, true); // mono
    view.setUint32(4, sampleRate, true);
    view.setUint32(8, sampleRate * 2, true); // byte rate
    view.setUint16(12, 2, true); // block align
    view.setUint16(14, 16, true); // bits per sample
  });
  const chunks = [ascii('WAVE'), riffChunk('fmt ', format), riffChunk('data', pcm)];
  // A LIST/INFO comment (ICMT) after the audio: players ignore it, the emulator finds the marker.
  if (comment) chunks.push(riffChunk('LIST', concat([ascii('INFO'), riffChunk('ICMT', comment)])));
  const body = concat(chunks);
  return concat([ascii('RIFF'), fields(4, (view) => view.setUint32(0, body.length, true)), body]);
}

/**
 * A PCM WAV file (8 kHz mono 16-bit, 1 s of silence unless told otherwise) that the emulator
 * transcribes as `text`; its `duration` is the audio's length.
 */
export function wavWithSpeech(
  text: string,
  options: WavFixtureOptions = {},
): Uint8Array<ArrayBuffer> {
  refuseUnknownOptions(options, WAV_OPTION_KEYS, 'wavWithSpeech');
  return wav(options, marker('SPEECH:', text));
}

/** The same WAV without a marker: the emulator describes it (`[WAV audio, 1.5 s]`). */
export function wavWithoutSpeech(options: WavFixtureOptions = {}): Uint8Array<ArrayBuffer> {
  refuseUnknownOptions(options, WAV_OPTION_KEYS, 'wavWithoutSpeech');
  return wav(options);
}

// ---------------------------------------------------------------------------------------- MP3

/** One silent MPEG-1 Layer III frame: 128 kbit/s, 44.1 kHz, mono, 1152 samples in 417 bytes. */
const MP3_FRAME_BYTES = 417;
const MP3_FRAME_HEADER = [0xff, 0xfb, 0x90, 0xc0];
const MP3_SAMPLES_PER_FRAME = 1152;
const MP3_SAMPLE_RATE = 44_100;

function syncsafe(value: number): Uint8Array {
  return Uint8Array.from([21, 14, 7, 0], (shift) => (value >>> shift) & 0x7f);
}

/**
 * An MP3 file: an ID3v2.4 tag whose private frame (`PRIV`) carries the marker, then `seconds` of
 * silent 128 kbit/s frames. The emulator transcribes it as `text`; it estimates the duration
 * from the file size at 128 kbit/s.
 */
export function mp3WithSpeech(
  text: string,
  options: AudioFixtureOptions = {},
): Uint8Array<ArrayBuffer> {
  refuseUnknownOptions(options, AUDIO_OPTION_KEYS, 'mp3WithSpeech');
  const seconds = secondsOf('MP3 fixture', options);
  const privData = concat([ascii('https://github.com/infergate\0'), marker('SPEECH:', text)]);
  const frame = concat([ascii('PRIV'), syncsafe(privData.length), new Uint8Array(2), privData]);
  const tag = concat([ascii('ID3'), Uint8Array.of(4, 0, 0), syncsafe(frame.length), frame]);
  const frameCount = Math.round((seconds * MP3_SAMPLE_RATE) / MP3_SAMPLES_PER_FRAME);
  const audio = new Uint8Array(frameCount * MP3_FRAME_BYTES);
  for (let i = 0; i < frameCount; i++) audio.set(MP3_FRAME_HEADER, i * MP3_FRAME_BYTES);
  return concat([tag, audio]);
}

// --------------------------------------------------------------------------------------- FLAC

const FLAC_SAMPLE_RATE = 8000;

function flacBlock(type: number, last: boolean, body: Uint8Array): Uint8Array {
  const header = fields(4, (view) => {
    view.setUint32(0, body.length);
    view.setUint8(0, (last ? 0x80 : 0) | type);
  });
  return concat([header, body]);
}

/**
 * The metadata of a FLAC stream (8 kHz mono 16-bit, `seconds` long by its STREAMINFO) and an
 * APPLICATION block carrying the marker; no audio frames. Enough for the emulator, which
 * transcribes it as `text` with the STREAMINFO duration, and for format sniffing — not for a
 * decoder.
 */
export function flacWithSpeech(
  text: string,
  options: AudioFixtureOptions = {},
): Uint8Array<ArrayBuffer> {
  refuseUnknownOptions(options, AUDIO_OPTION_KEYS, 'flacWithSpeech');
  const seconds = secondsOf('FLAC fixture', options);
  const totalSamples = Math.round(seconds * FLAC_SAMPLE_RATE);
  const streamInfo = fields(34, (view) => {
    view.setUint16(0, 4096); // min block size
    view.setUint16(2, 4096); // max block size
    // bytes 4..9: min / max frame size, 0 = unknown
    // sample rate (20 bits), channels - 1 (3 bits), bits per sample - 1 (5 bits), then the
    // top 4 of the 36 bits of the sample count
    const high = Math.floor(totalSamples / 2 ** 32);
    view.setUint32(10, ((FLAC_SAMPLE_RATE << 12) | (0 << 9) | (15 << 4) | high) >>> 0);
    view.setUint32(14, totalSamples >>> 0);
    // bytes 18..33: MD5 of the audio, 0 = unknown
  });
  return concat([
    ascii('fLaC'),
    flacBlock(0, false, streamInfo),
    flacBlock(2, true, concat([ascii('igEm'), marker('SPEECH:', text)])),
  ]);
}

// ---------------------------------------------------------------------------------------- PNG

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A zlib stream of stored (uncompressed) deflate blocks: valid everywhere, no compressor needed. */
function zlibStored(raw: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.of(0x78, 0x01)];
  for (let at = 0; at < raw.length; at += 0xffff) {
    const block = raw.subarray(at, at + 0xffff);
    const last = at + 0xffff >= raw.length;
    const header = fields(5, (view) => {
      view.setUint8(0, last ? 1 : 0);
      view.setUint16(1, block.length, true);
      view.setUint16(3, ~block.length & 0xffff, true);
    });
    parts.push(header, block);
  }
  parts.push(fields(4, (view) => view.setUint32(0, adler32(raw))));
  return concat(parts);
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat([ascii(type), data]);
  const length = fields(4, (view) => view.setUint32(0, data.length));
  const crc = fields(4, (view) => view.setUint32(0, crc32(typed)));
  return concat([length, typed, crc]);
}

/**
 * A greyscale PNG (1×1 white unless told otherwise) that the emulator's OCR reads as `text`: the
 * marker sits in a private ancillary chunk (`ocRt`), which image decoders skip.
 */
export function pngWithText(
  text: string,
  options: PngFixtureOptions = {},
): Uint8Array<ArrayBuffer> {
  refuseUnknownOptions(options, PNG_OPTION_KEYS, 'pngWithText');
  const width = options.width ?? 1;
  const height = options.height ?? 1;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(
      `PNG fixture: width and height must be integers ≥ 1, got ${width}×${height}`,
    );
  }
  const pixels = options.pixels ?? new Uint8Array(width * height).fill(0xff);
  if (pixels.length !== width * height) {
    throw new RangeError(
      `PNG fixture: pixels has ${pixels.length} bytes; ${width}×${height} needs ${width * height}`,
    );
  }
  const rows = new Uint8Array((width + 1) * height); // each row: filter type 0, then its pixels
  for (let y = 0; y < height; y++) {
    rows.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const header = fields(13, (view) => {
    view.setUint32(0, width);
    view.setUint32(4, height);
    view.setUint8(8, 8); // bit depth
    view.setUint8(9, 0); // greyscale
  });
  return concat([
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    pngChunk('IHDR', header),
    pngChunk('ocRt', marker('TEXT:', text)),
    pngChunk('IDAT', (options.deflate ?? zlibStored)(rows)),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}
