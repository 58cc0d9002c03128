// docs/gateway-protocol.md §8, §9 (image and audio input, 1 byte … 23 MiB).
import { invalidRequest } from '../errors/errors';
import type { AudioLike } from '../protocol/wire-types';
import { decodeBase64Prefix, normaliseBase64 } from './base64';
import { decodeBase64, encodeBase64 } from './base64-bytes';

/** Bytes given as a Blob/File, Uint8Array, ArrayBuffer or base64 string, with their size known up front. */
export interface BinaryInput {
  readonly size: number;
  /** A File's name, when there is one. */
  readonly name: string | undefined;
  /** A Blob's MIME type, when there is one. */
  readonly type: string | undefined;
  /** The first `count` bytes (for format sniffing). */
  head(count: number): Promise<Uint8Array>;
  /** The bytes from `start` to `end` (a Blob's read alone: what follows a tag, for sniffing). */
  slice(start: number, end: number): Promise<Uint8Array>;
  /** The bytes as a Blob of this runtime's, of this MIME type (for multipart). */
  blob(type: string): Promise<Blob>;
  /** Standard base64 of the bytes. */
  base64(): Promise<string>;
}

function fromBytes(bytes: Uint8Array): BinaryInput {
  return {
    size: bytes.byteLength,
    name: undefined,
    type: undefined,
    head: async (count) => bytes.subarray(0, count),
    slice: async (start, end) => bytes.subarray(start, end),
    blob: async (type) => new Blob([bytes as Uint8Array<ArrayBuffer>], { type }),
    base64: async () => encodeBase64(bytes),
  };
}

function fromBlob(blob: Blob): BinaryInput {
  const name = (blob as { name?: unknown }).name;
  return {
    size: blob.size,
    name: typeof name === 'string' && name !== '' ? name : undefined,
    type: blob.type !== '' ? blob.type : undefined,
    head: async (count) => new Uint8Array(await blob.slice(0, count).arrayBuffer()),
    slice: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()),
    // The type asked for (the caller's `mime_type`, else the Blob's own, else the format's) wins:
    // a slice relabels the bytes without copying them. A Blob not of this runtime (fetch-blob's)
    // is copied into one: FormData takes only its own runtime's.
    blob: async (type) => {
      if (typeof Blob === 'undefined' || !(blob instanceof Blob)) {
        return new Blob([new Uint8Array(await blob.arrayBuffer())], { type });
      }
      return blob.type === type ? blob : blob.slice(0, blob.size, type);
    },
    base64: async () => encodeBase64(new Uint8Array(await blob.arrayBuffer())),
  };
}

function fromBase64(field: string, text: string): BinaryInput {
  const { text: data, size } = normaliseBase64(field, text);
  let decoded: Uint8Array | undefined;
  const bytes = () => {
    decoded ??= decodeBase64(data);
    return decoded;
  };
  return {
    size,
    name: undefined,
    type: undefined,
    head: async (count) => decodeBase64Prefix(data, count),
    slice: async (start, end) => decodeBase64Prefix(data, end).subarray(start),
    blob: async (type) => new Blob([bytes() as Uint8Array<ArrayBuffer>], { type }),
    base64: async () => data,
  };
}

/**
 * Normalises binary input; a string is read as base64 (a `data:...;base64,` prefix, line breaks
 * and missing `=` padding are allowed; it is sent padded and without whitespace).
 */
export function toBinaryInput(field: string, value: AudioLike): BinaryInput {
  if (typeof value === 'string') return fromBase64(field, value);
  if (value instanceof Uint8Array) return fromBytes(value);
  // (By its tag, not `instanceof`: an ArrayBuffer made in another realm — a vm context, an
  // iframe, a worker's transfer — is not an instance of this realm's.)
  if (tagOf(value) === 'ArrayBuffer') return fromBytes(new Uint8Array(value as ArrayBuffer));
  if (ArrayBuffer.isView(value)) {
    const view = value as ArrayBufferView;
    return fromBytes(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  }
  if (isBlobLike(value)) return fromBlob(value);
  throw invalidRequest(field, 'must be a Blob, File, Uint8Array, ArrayBuffer or base64 string');
}

const tagOf = (value: unknown): string => Object.prototype.toString.call(value).slice(8, -1);

/**
 * A Blob or File, or one that reads like one though it is not this runtime's (fetch-blob's, as
 * node-fetch's `fileFrom` makes; another realm's): its `size`, `type`, `slice()` and `arrayBuffer()`
 * are all that is read.
 */
function isBlobLike(value: unknown): value is Blob {
  if (typeof Blob !== 'undefined' && value instanceof Blob) return true;
  if (typeof value !== 'object' || value === null) return false;
  const blob = value as Partial<Record<'size' | 'type' | 'slice' | 'arrayBuffer', unknown>>;
  return (
    typeof blob.size === 'number' &&
    typeof blob.type === 'string' &&
    typeof blob.slice === 'function' &&
    typeof blob.arrayBuffer === 'function'
  );
}
