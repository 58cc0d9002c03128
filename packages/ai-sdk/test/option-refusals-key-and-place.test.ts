// What the option checks refuse, and how: the provider's API key pasted as a key's name in a
// group (`hedge`, `circuitBreaker`, `providerOptions.infergate`) is never quoted (redacted like
// the key of createGateway's own settings); a model's setting or a near miss of a provider setting
// given in `providerOptions.infergate` is refused saying where it goes, not sent to the model
// server; and the embedding and transcription factories, which take no settings, refuse a second
// argument instead of ignoring it.
import { InvalidArgumentError, LoadSettingError } from '@ai-sdk/provider';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { caught, emulate } from '@infergate/emulator/testing';
import { embed, generateText, transcribe } from 'ai';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createGateway, type GatewayProviderSettings } from '../src';
import { createGateway as createGatewayV3 } from '../src/v6';
import { recordingGatewayOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const KEY = emulated.apiKey;
const { bodies, recording, gateway } = recordingGatewayOn(emulated);

/** Every string of an error that could leave the process (its cause's too, with its field). */
function shown(error: Error): string {
  const { argument } = error as { argument?: string };
  const cause = error.cause as (Error & { field?: string }) | undefined;
  return [error.message, error.stack, argument, cause?.message, cause?.stack, cause?.field].join(
    '\n',
  );
}

describe("the provider's key, pasted as a key's name in a group, is never quoted", () => {
  it.each([
    ['createGateway hedge', () => gateway({ hedge: { [KEY]: 1 } as never })],
    ['createGateway circuitBreaker', () => gateway({ circuitBreaker: { [KEY]: 1 } as never })],
    [
      'a model setting hedge',
      () => gateway()('community/general', { hedge: { [KEY]: 1 } as never }),
    ],
    [
      'a model setting structuredOutput',
      () => gateway()('community/general', { structuredOutput: { [KEY]: 1 } as never }),
    ],
  ])('%s: LoadSettingError, the key redacted', async (_, make) => {
    const error = await caught(make);
    expect(LoadSettingError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(
      /unknown option `\[redacted\]` in (hedge|circuitBreaker|structuredOutput)/,
    );
    expect(shown(error)).not.toContain(KEY);
  });

  it('also when the key comes from INFERGATE_API_KEY', async () => {
    vi.stubEnv('INFERGATE_API_KEY', KEY);
    try {
      const error = await caught(() =>
        createGateway({ baseURL: emulated.baseURL, hedge: { [KEY]: 1 } as never }),
      );
      expect(error.message).toContain('unknown option `[redacted]` in hedge');
      expect(shown(error)).not.toContain(KEY);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it.each([
    ['generateText', { hedge: { [KEY]: 1 } }],
    ['generateText', { structuredOutput: { [KEY]: 1 } }],
    ['embed', { [KEY]: 1 }],
    ['embed', { inputType: 'query', [KEY]: 1 }],
    ['transcribe', { [KEY]: 1 }],
  ])(
    '%s providerOptions.infergate %#: InvalidArgumentError, the key redacted, nothing sent',
    async (call, infergate) => {
      const before = emulator().requests;
      const error = await caught(() =>
        call === 'embed'
          ? embed({
              model: gateway().embeddingModel('multilingual-e5-base'),
              value: 'x',
              providerOptions: { infergate },
            })
          : call === 'transcribe'
            ? transcribe({
                model: gateway().transcriptionModel(),
                audio: wavWithSpeech('x'),
                providerOptions: { infergate },
              })
            : generateText({
                model: gateway()('community/general'),
                prompt: 'hi',
                providerOptions: { infergate },
              }),
      );
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect(error.message).toContain('`[redacted]`');
      expect(shown(error)).not.toContain(KEY);
      expect(emulator().requests).toBe(before);
    },
  );
});

/** The emulator's count of requests, every route. */
function emulator() {
  const counts = emulated.emulator.counters.requests as Record<string, number>;
  return { requests: Object.values(counts).reduce((sum, n) => sum + n, 0) };
}

describe('providerOptions.infergate: what belongs elsewhere is refused, not sent', () => {
  it.each([
    [{ sendReasoning: true }, 'sendReasoning', 'a model setting: pass it to the model factory'],
    [
      { capabilities: ['chat', 'tools'] },
      'capabilities',
      'a model setting: pass it to the model factory',
    ],
    [
      { timeout: 5000 },
      'timeout',
      'did you mean `timeoutMs`? a provider setting: pass it to `createGateway`',
    ],
    [
      { apikey: 'sk-live-NOT-REAL-0123456789' },
      'apikey',
      'did you mean `apiKey`? a provider setting: pass it to `createGateway`',
    ],
  ])('%o', async (infergate, key, where) => {
    const error = await caught(() =>
      generateText({
        model: gateway()('community/general'),
        prompt: 'hi',
        providerOptions: { infergate },
      }),
    );
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error.message).toContain(
      `unknown option \`${key}\` in providerOptions.infergate — ${where}`,
    );
    // (A value given there is never quoted: it may be a secret.)
    expect(shown(error)).not.toContain('sk-live');
    expect(bodies).toEqual([]);
  });

  it('still sends request fields (any key with an `_`, one close to none of ours), and an unset key', async () => {
    await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      providerOptions: { infergate: { top_k: 5, seed: 7, timeoutMs: undefined } },
    });
    expect(bodies[0]).toMatchObject({ top_k: 5, seed: 7 });
  });
});

describe('the factories that take no settings', () => {
  for (const [entry, make] of [
    ['main entry', gateway],
    [
      '/v6',
      (settings?: GatewayProviderSettings) =>
        createGatewayV3({ ...emulated.connection, ...recording, ...settings }),
    ],
  ] as const) {
    it(`${entry}: embeddingModel(id, { dimensions }) is refused, pointing to providerOptions.infergate`, async () => {
      const provider = make();
      const embeddingModel = provider.embeddingModel as (id: string, settings: unknown) => unknown;
      const error = await caught(() => embeddingModel('multilingual-e5-base', { dimensions: 256 }));
      expect(LoadSettingError.isInstance(error)).toBe(true);
      expect(error.message).toContain('embeddingModel(id) takes no settings');
      expect(error.message).toContain('`dimensions`');
      expect(error.message).toContain('`providerOptions.infergate`');
      const transcriptionModel = provider.transcriptionModel as (id: string, s: unknown) => unknown;
      const refused = await caught(() => transcriptionModel('whisper', { language: 'uk' }));
      expect(refused.message).toContain('transcriptionModel(id) takes no settings');
      // An unset second argument is no setting.
      expect(() => embeddingModel('multilingual-e5-base', undefined)).not.toThrow();
    });
  }

  it('providerOptions.infergate.dimensions is where the size is set', async () => {
    const { embedding } = await embed({
      model: gateway().embeddingModel('multilingual-e5-base'),
      value: 'x',
      providerOptions: { infergate: { dimensions: 256 } },
    });
    expect(embedding).toHaveLength(256);
  });
});
