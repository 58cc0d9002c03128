// A transcription asked as text (`response_format: 'text'`) answered 200 with the gateway's error
// object: the error, read within its attempt and retried as its code says, never the transcript
// (rv-2c F1: once whole answers were parsed within their attempt, a body asked as text skipped the
// error check — labelled `text/plain`, the error object came back as the transcript).
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';
import { caught } from './helpers';

/** A WAV header: all the check before sending reads of the audio. */
function wavHeader(): Uint8Array {
  const audio = new Uint8Array(2000);
  const ascii = (text: string, at: number) =>
    audio.set(
      [...text].map((c) => c.charCodeAt(0)),
      at,
    );
  ascii('RIFF', 0);
  new DataView(audio.buffer).setUint32(4, audio.length - 8, true);
  ascii('WAVEfmt ', 8);
  return audio;
}

const busy = JSON.stringify({ error: { code: 'model_busy', message: 'busy now' } });

describe('a text transcription answered 200 with an error object', () => {
  it.each(['application/json', 'text/plain'])('labelled %s: the error, retried', async (type) => {
    const gateway = await emulate();
    let sent = 0;
    const client = createGatewayClient({
      ...gateway.connection,
      maxRetries: 2,
      retryBaseDelayMs: 1,
      fetch: (input, init) => {
        if (!String(input).endsWith('/audio/transcriptions')) {
          return gateway.connection.fetch(input, init);
        }
        sent++;
        return Promise.resolve(new Response(busy, { headers: { 'content-type': type } }));
      },
    });
    const error = await caught(() =>
      client.transcribe({ audio: wavHeader(), response_format: 'text' }),
    );
    expect(error).toMatchObject({ code: 'model_busy', status: 200, isRetryable: true });
    expect(sent).toBe(3);
  });

  it('a JSON string labelled JSON is the transcript (rv-2d F1)', async () => {
    const gateway = await emulate();
    const client = createGatewayClient({
      ...gateway.connection,
      fetch: (input, init) => {
        if (!String(input).endsWith('/audio/transcriptions')) {
          return gateway.connection.fetch(input, init);
        }
        const body = JSON.stringify('Hello there.');
        return Promise.resolve(
          new Response(body, { headers: { 'content-type': 'application/json' } }),
        );
      },
    });
    const text = await client.transcribe({ audio: wavHeader(), response_format: 'text' });
    expect(text).toBe('Hello there.');
  });
});
