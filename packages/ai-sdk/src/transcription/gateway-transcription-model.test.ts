import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { transcribe } from 'ai';
import { experimental_transcribe as transcribeV6 } from 'ai-v6';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn } from '../../test/providers';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway, gatewayV3 } = providersOn(emulated);

/** Provider settings whose fetch adds an engine's segments and word timings to the answer. */
const withTimings = {
  fetch: (async (input, init) => {
    const answer = await fetch(input, init);
    if (!String(input).endsWith('/audio/transcriptions')) return answer;
    const body = (await answer.json()) as Record<string, unknown>;
    body.segments = [{ id: 0, start: 0, end: 1.2, text: 'hello world' }];
    body.words = [
      { word: 'hello', start: 0, end: 0.5 },
      { word: 'world', start: 0.6, end: 1.2 },
      { word: 'cut', start: 1.2 },
    ];
    return Response.json(body, { status: answer.status, headers: answer.headers });
  }) satisfies typeof fetch,
};

describe('transcribe through the gateway', () => {
  it('returns text, language and duration, with no segments', async () => {
    const result = await transcribe({
      model: gateway().transcriptionModel(),
      audio: wavWithSpeech('hello from the test', { seconds: 2 }),
    });
    expect(result.text).toBe('hello from the test');
    expect(result.language).toBe('en');
    expect(result.durationInSeconds).toBe(2);
    expect(result.segments).toEqual([]);
    // The service's id (the gateway names no engine here) and the answer's headers.
    expect(result.responses[0]?.modelId).toBe('speech_to_text');
    expect(result.responses[0]?.headers?.['content-type']).toContain('application/json');
    expect(emulator.counters.requests.transcriptions).toBe(1);
  });

  it("returns an engine's segments and word timings (a word without its times left out)", async () => {
    const result = await transcribe({
      model: gateway(withTimings).transcriptionModel(),
      audio: wavWithSpeech('hello world'),
    });
    expect(result.segments).toEqual([{ text: 'hello world', startSecond: 0, endSecond: 1.2 }]);
    expect(result.words).toEqual([
      { text: 'hello', startSecond: 0, endSecond: 0.5 },
      { text: 'world', startSecond: 0.6, endSecond: 1.2 },
    ]);
  });

  it('/v6 (ai@6): segments kept, word timings left out with a warning', async () => {
    const result = await transcribeV6({
      model: gatewayV3(withTimings).transcriptionModel(),
      audio: wavWithSpeech('hello world'),
    });
    expect(result.segments).toHaveLength(1);
    expect(result).not.toHaveProperty('words');
    expect(result.warnings).toContainEqual(
      expect.objectContaining({ type: 'other', message: expect.stringMatching(/word timings/) }),
    );
  });

  it('passes language and translate, and warns about timestamp granularities', async () => {
    const result = await transcribe({
      model: gateway().transcriptionModel(),
      audio: Buffer.from(wavWithSpeech('добрий день')).toString('base64'),
      timestampGranularities: ['word'],
      providerOptions: { infergate: { language: 'uk', translate: true } },
    });
    expect(result.text).toBe('[en] добрий день');
    expect(result.language).toBe('uk');
    expect(result.warnings).toContainEqual(
      expect.objectContaining({ type: 'unsupported', feature: 'timestampGranularities' }),
    );
  });
});
