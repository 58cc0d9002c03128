import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';

describe('a URL where base64 media belongs is named a URL, not a bad character', () => {
  it('ocr and transcribe refuse it before sending, saying URLs are not fetched', async () => {
    const { connection, emulator } = await emulate();
    const client = createGatewayClient(connection);
    const ocr = await caught(client.ocr({ image: 'https://example.com/scan.png' }));
    expect(ocr).toMatchObject({ code: 'invalid_request_error', field: 'image' });
    expect((ocr as Error).message).toBe(
      'image: is not well-formed base64: it looks like a URL (https://…), which is not fetched here; pass the bytes, base64 or a data: URL',
    );
    const speech = await caught(client.transcribe({ audio: 'ftp://example.com/a.wav' }));
    expect((speech as Error).message).toMatch(/^audio: .*looks like a URL \(ftp:\/\/…\)/);
    expect(emulator.counters.requests.ocr + emulator.counters.requests.transcriptions).toBe(0);
  });

  it('a data: URL is still read as base64', async () => {
    const { connection } = await emulate();
    const client = createGatewayClient(connection);
    // Not a PNG: refused for what it decodes to, after the prefix was read.
    const error = await caught(client.ocr({ image: 'data:image/png;base64,!!' }));
    expect((error as Error).message).not.toMatch(/URL/);
  });
});
