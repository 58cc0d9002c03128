// A service tool's options are refused naming the option by its path as they are given
// (`infergate.tools.translate({ … })`), as generateText is given the tool, nothing sent: an
// unknown key (its message naming the closest option) as `tools.translate.descripton` (the
// `LoadSettingError`'s cause, core's refusal: the error takes a message only), a bad value as
// `tools.translate.targetLanguage` (the `InvalidArgumentError`'s argument): one path rule for both.
import { InvalidArgumentError, LoadSettingError } from '@ai-sdk/provider';
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { generateText, stepCountIs } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn } from './providers';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { gateway, gatewayV3 } = providersOn(emulated);
const { emulator } = emulated;

/** The error `generateText` fails with when its tool is made with `make`, and the requests sent. */
async function refusedTool(make: () => unknown) {
  const provider = gateway();
  const error = await caught(() =>
    generateText({
      model: provider('community/general'),
      tools: { service: make() as never },
      stopWhen: stepCountIs(2),
      prompt: 'Use the service tool',
    }),
  );
  const sent = Object.values(emulator.counters.requests).reduce((sum, n) => sum + n, 0);
  return { error, sent };
}

describe("a service tool's options, refused by their path", () => {
  it.each([
    [
      'tools.translate.descripton',
      () => gateway().tools.translate({ descripton: 'x' } as never),
      'unknown option `descripton` in tools.translate options — did you mean `description`?',
    ],
    [
      'tools.ocr.resolveImg',
      () => gateway().tools.ocr({ resolveImg: async () => new Uint8Array() } as never),
      'unknown option `resolveImg` in tools.ocr options — did you mean `resolveImage`?',
    ],
    [
      'tools.transcribe.resolveAudo',
      () => gateway().tools.transcribe({ resolveAudo: async () => new Uint8Array() } as never),
      'unknown option `resolveAudo` in tools.transcribe options — did you mean `resolveAudio`?',
    ],
    [
      'tools.transcribe.languag',
      () => gateway().tools.transcribe({ languag: 'de' } as never),
      'unknown option `languag` in tools.transcribe options; known: resolveAudio, description',
    ],
    [
      'tools.translate.target_language',
      () => gatewayV3().tools.translate({ target_language: 'de' } as never),
      'unknown option `target_language` in tools.translate options — did you mean `targetLanguage`?',
    ],
  ])(
    'an unknown key is a LoadSettingError whose cause names %s, its message the closest option, nothing sent',
    async (field, make, message) => {
      const { error, sent } = await refusedTool(make);
      expect(LoadSettingError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe(message);
      const cause = (error as Error).cause;
      expect(isGatewayError(cause) && [cause.code, cause.field]).toEqual([
        'configuration_error',
        field,
      ]);
      expect(sent).toBe(0);
    },
  );

  it('a bad targetLanguage is an InvalidArgumentError whose argument is its path', async () => {
    const { error, sent } = await refusedTool(() =>
      gateway().tools.translate({ targetLanguage: 'german' }),
    );
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: 'tools.translate.targetLanguage' });
    expect((error as Error).message).toContain('"german" is not a language code');
    expect(sent).toBe(0);
  });
});
