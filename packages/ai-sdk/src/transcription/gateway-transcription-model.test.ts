import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { transcribe } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn } from '../../test/providers';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway } = providersOn(emulated);

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
