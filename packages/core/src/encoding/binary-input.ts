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
  /** The bytes as a Blob of this MIME type (for multipart). */
  blob(type: string): Blob;
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
    blob: (type) => new Blob([bytes as Uint8Array<ArrayBuffer>], { type }),
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
    // a slice relabels the bytes without copying them.
    blob: (type) => (blob.type === type ? blob : blob.slice(0, blob.size, type)),
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
    blob: (type) => new Blob([bytes() as Uint8Array<ArrayBuffer>], { type }),
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
  if (value instanceof ArrayBuffer) return fromBytes(new Uint8Array(value));
  if (ArrayBuffer.isView(value)) {
    const view = value as ArrayBufferView;
    return fromBytes(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  }
  if (typeof Blob !== 'undefined' && value instanceof Blob) return fromBlob(value);
  throw invalidRequest(field, 'must be a Blob, File, Uint8Array, ArrayBuffer or base64 string');
}
