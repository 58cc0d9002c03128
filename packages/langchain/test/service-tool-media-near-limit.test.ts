// docs/gateway-protocol.md §8, §9 (the 23 MiB limit of images and audio): the ocr and transcribe
// tools take what core takes, the limit on the decoded bytes once a `data:` prefix and line breaks
// are removed: a data: URL of exactly 23 MiB, MIME base64 of 64 KiB under it (rv-svc F1). A byte
// over is a tool input error naming the size and the limit, nothing sent.
import { LIMITS } from '@infergate/core';
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { ToolInputParsingException } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { createOcrTool, createTranscribeTool } from '../src/index';

const LIMIT = LIMITS.ocrMaxImageBytes;

/** `head` at the start of `bytes` zero bytes, as base64. */
const base64Of = (head: Uint8Array, bytes: number) => {
  const file = Buffer.alloc(bytes);
  file.set(head);
  return file.toString('base64');
};
const mime = (base64: string) => base64.replace(/.{76}/g, '$&\r\n');

describe('ocr and transcribe tools near the 23 MiB limit', { timeout: 120_000 }, () => {
  it('ocr reads a data: URL of exactly 23 MiB', async () => {
    const { emulator, connection } = await emulate();
    const image = `data:image/png;base64,${base64Of(pngWithText('scan'), LIMIT)}`;
    expect(await createOcrTool(connection).invoke({ image })).toBe('scan');
    expect(emulator.counters.requests.ocr).toBe(1);
  });

  it('transcribe reads MIME base64 of 64 KiB under the limit', async () => {
    const { emulator, connection } = await emulate();
    const audio = mime(base64Of(wavWithSpeech('talk'), LIMITS.audioMaxBytes - 65_536));
    expect(await createTranscribeTool(connection).invoke({ audio })).toBe('talk');
    expect(emulator.counters.requests.transcriptions).toBe(1);
  });

  it('a byte over is a tool input error naming the decoded size and the limit', async () => {
    const { emulator, connection } = await emulate();
    const image = mime(base64Of(pngWithText('scan'), LIMIT + 1));
    const error = await createOcrTool(connection)
      .invoke({ image })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolInputParsingException);
    expect((error as Error).message).toBe(
      `ocr: image: decodes to ${LIMIT + 1} bytes; the limit is ${LIMIT} bytes (23 MiB)`,
    );
    expect(emulator.counters.requests.ocr).toBe(0);
  });
});
