import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayAudioTranscriptLoader } from './gateway-audio-transcript-loader';

const segments = [
  { id: 0, start: 0, end: 1.1, text: 'Добрий', tokens: [1, 2], avg_logprob: -0.2 },
  { id: 1, start: 1.1, end: 2, text: ' день' },
];
const words = [
  { word: 'Добрий', start: 0, end: 1.1 },
  { word: 'день', start: 1.1, end: 2 },
];

/** The emulator's transcription answer with `extra` fields added, as a verbose engine sends them (§2.11). */
function answeringWith(gateway: EmulatedGateway, extra: Record<string, unknown>) {
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await gateway.fetch(input, init);
    if (!new Request(input, init).url.endsWith('/audio/transcriptions')) return response;
    return Response.json({ ...((await response.json()) as object), ...extra });
  };
  return { ...gateway.connection, fetch };
}

describe('GatewayAudioTranscriptLoader metadata', () => {
  it("keeps the answer's model, segments and words as sent", async () => {
    const connection = answeringWith(await emulate(), {
      model: 'whisper-large-v3',
      segments,
      words,
    });
    const [doc] = await new GatewayAudioTranscriptLoader({
      ...connection,
      audio: wavWithSpeech('Добрий день', { seconds: 2 }),
      language: 'uk',
      metadata: { team: 'sales' },
    }).load();
    expect(doc?.pageContent).toBe('Добрий день');
    expect(doc?.metadata).toEqual({
      language: 'uk',
      duration: 2,
      model: 'whisper-large-v3',
      segments,
      words,
      team: 'sales',
    });
  });

  it('adds no model, segments or words when the answer has none', async () => {
    const { connection } = await emulate();
    const [doc] = await new GatewayAudioTranscriptLoader({
      ...connection,
      audio: wavWithSpeech('Добрий день', { seconds: 2 }),
      language: 'uk',
    }).load();
    expect(doc?.metadata).toEqual({ language: 'uk', duration: 2 });
  });
});
