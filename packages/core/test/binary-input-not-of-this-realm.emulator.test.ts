// docs/gateway-protocol.md §8, §9 (image and audio input): bytes given as an ArrayBuffer of another
// realm (a vm context, an iframe, a worker's transfer), or as a Blob that is not this runtime's
// (fetch-blob's File, as node-fetch's `fileFrom` makes), are read like this realm's own.
import { runInNewContext } from 'node:vm';
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';

/** The bytes in an ArrayBuffer made in another realm: not `instanceof ArrayBuffer` here. */
function foreignArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const buffer = runInNewContext(`new ArrayBuffer(${bytes.byteLength})`) as ArrayBuffer;
  new Uint8Array(buffer).set(bytes);
  return buffer;
}

/** A File as fetch-blob makes one: it reads like a Blob, but is not this runtime's Blob. */
class BlobLike {
  readonly #bytes: Uint8Array;
  readonly type: string;
  readonly name: string;
  constructor(bytes: Uint8Array, name: string, type = '') {
    this.#bytes = bytes;
    this.name = name;
    this.type = type;
  }
  get size(): number {
    return this.#bytes.byteLength;
  }
  slice(start = 0, end = this.size, type = ''): BlobLike {
    return new BlobLike(this.#bytes.slice(start, end), this.name, type);
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes.slice().buffer;
  }
  get [Symbol.toStringTag](): string {
    return 'File';
  }
}

describe('binary input not of this realm', () => {
  it('transcribes an ArrayBuffer of another realm', async () => {
    const gateway = await emulate();
    const client = createGatewayClient(gateway.connection);
    const audio = foreignArrayBuffer(wavWithSpeech('from another realm'));
    expect(audio instanceof ArrayBuffer).toBe(false);
    expect((await client.transcribe({ audio })).text).toBe('from another realm');
  });

  it("reads an image in another realm's ArrayBuffer", async () => {
    const gateway = await emulate();
    const client = createGatewayClient(gateway.connection);
    const image = foreignArrayBuffer(pngWithText('Invoice 42'));
    expect((await client.ocr({ image })).text).toContain('Invoice 42');
  });

  it('transcribes a Blob-like File (fetch-blob), as multipart and as JSON', async () => {
    const gateway = await emulate();
    const client = createGatewayClient(gateway.connection);
    const file = new BlobLike(wavWithSpeech('a blob of its own'), 'note.wav', 'audio/wav');
    const audio = file as unknown as Blob;
    expect((await client.transcribe({ audio })).text).toBe('a blob of its own');
    expect((await client.transcribe({ audio, encoding: 'json' })).text).toBe('a blob of its own');
  });

  it('still refuses an object that is not a Blob', async () => {
    const gateway = await emulate();
    const client = createGatewayClient(gateway.connection);
    const audio = { size: 3, arrayBuffer: async () => new ArrayBuffer(3) } as unknown as Blob;
    await expect(client.transcribe({ audio })).rejects.toMatchObject({
      code: 'invalid_request_error',
      message: expect.stringContaining('must be a Blob'),
    });
  });
});
