// docs/gateway-protocol.md §2.3: a multipart body sets its own type with its boundary, whatever
// `Content-Type` the caller's headers (the client's or the call's) name; a JSON body keeps
// `application/json`. §9: the file part's type is the caller's `mime_type` when given.
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';

/** A client of an emulated gateway whose fetch keeps the content type of each service request. */
async function recordingTypes(headers: Record<string, string>) {
  const gateway = await emulate();
  const types: string[] = [];
  const client = createGatewayClient({
    ...gateway.connection,
    headers,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST') types.push(request.headers.get('content-type') ?? '');
      return gateway.emulator.fetch(request);
    },
  });
  return { client, types };
}

describe("a caller's Content-Type header", () => {
  it("does not replace a transcription's multipart type (the client's or the call's)", async () => {
    const { client, types } = await recordingTypes({ 'Content-Type': 'application/json' });
    const audio = wavWithSpeech('multipart still');
    expect((await client.transcribe({ audio })).text).toBe('multipart still');
    const headers = { 'content-type': 'text/plain', 'x-call': '1' };
    expect((await client.transcribe({ audio }, { headers })).text).toBe('multipart still');
    await client.translate({ input: 'hi', target_language: 'uk' }, { headers });
    expect(types).toEqual([
      expect.stringMatching(/^multipart\/form-data; boundary=/),
      expect.stringMatching(/^multipart\/form-data; boundary=/),
      'application/json',
    ]);
  });
});

describe("a transcription's file type", () => {
  it("is the mime_type given, over a File of another type; else the File's own", async () => {
    const gateway = await emulate();
    const fileTypes: string[] = [];
    const client = createGatewayClient({
      ...gateway.connection,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const file = (await request.clone().formData()).get('file') as File;
        fileTypes.push(file.type);
        return gateway.emulator.fetch(request);
      },
    });
    const audio = new File([wavWithSpeech('typed')], 'memo.bin', {
      type: 'application/octet-stream',
    });
    expect((await client.transcribe({ audio, mime_type: 'audio/wav' })).text).toBe('typed');
    await client.transcribe({ audio });
    expect(fileTypes).toEqual(['audio/wav', 'application/octet-stream']);
  });
});
