import { describe, expect, it } from 'vitest';
import { serviceToolArgumentsProblem, serviceToolCallProblem } from './service-tool-arguments';

// A tool whose media the application resolves: core picks the checks, so the adapters pass their
// `resolvesMedia` and map the problem, never choosing between two functions.
describe('serviceToolCallProblem with resolvesMedia', () => {
  it('checks only the arguments while the media is unresolved (a reference is no data)', async () => {
    expect(await serviceToolCallProblem('ocr', { image: 'scan 1' })).toMatch(/^image: /);
    expect(
      await serviceToolCallProblem('ocr', { image: 'scan 1' }, { resolvesMedia: true }),
    ).toBeUndefined();
    expect(
      await serviceToolCallProblem('transcribe', { audio: 'memo' }, { resolvesMedia: true }),
    ).toBeUndefined();
  });

  it("words an argument's problem as serviceToolArgumentsProblem does, the schema read as resolving", async () => {
    for (const [name, args] of [
      ['ocr', { image: 'scan 1', extra: 1 }],
      ['ocr', { image: '' }],
      ['transcribe', { audio: 5 }],
      ['transcribe', { audio: 'memo', translate: 'yes' }],
    ] as const) {
      const expected = serviceToolArgumentsProblem(name, args, { resolvesMedia: true });
      expect(expected).toBeTypeOf('string');
      expect(await serviceToolCallProblem(name, args, { resolvesMedia: true })).toBe(expected);
    }
  });

  it('passes the target language on, and checks the resolved media once given', async () => {
    expect(
      await serviceToolCallProblem(
        'translate',
        { text: 'hi' },
        { targetLanguage: 'de', resolvesMedia: true },
      ),
    ).toBeUndefined();
    const media = new Uint8Array([1, 2, 3]);
    expect(
      await serviceToolCallProblem('transcribe', { audio: 'memo' }, { media, resolvesMedia: true }),
    ).toMatch(/^audio: is not WAV/);
  });
});
