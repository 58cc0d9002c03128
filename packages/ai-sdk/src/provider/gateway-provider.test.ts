import { inspect } from 'node:util';
import { LoadAPIKeyError, LoadSettingError, NoSuchModelError } from '@ai-sdk/provider';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import { createProviderRegistry, generateText } from 'ai';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { BASE_URL, providersOn } from '../../test/providers';
import { createGateway, gateway as defaultGateway } from './gateway-provider';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway } = providersOn(emulated);

afterEach(() => vi.unstubAllEnvs());

describe('createGateway', () => {
  it('is a callable V4 provider with chat, embedding and transcription models', () => {
    const provider = gateway();
    expect(provider.specificationVersion).toBe('v4');
    expect(provider('community/general').modelId).toBe('community/general');
    expect(provider.languageModel('community/plain').provider).toBe('infergate.chat');
    expect(provider.chat('community/plain').specificationVersion).toBe('v4');
    expect(provider.embeddingModel('all-minilm-l6-v2').modelId).toBe('all-minilm-l6-v2');
    expect(provider.transcriptionModel().provider).toBe('infergate.transcription');
  });

  it('throws NoSuchModelError for model kinds the gateway does not have', () => {
    const provider = gateway();
    expect(() => provider.imageModel('any')).toThrow(NoSuchModelError);
    expect(() => provider.speechModel?.('any')).toThrow(NoSuchModelError);
  });

  it('escapes control characters in the id the NoSuchModelError message quotes', () => {
    const provider = gateway();
    const forged = 'any\n[INFO] forged \u001b[2K';
    expect(() => provider.imageModel(forged)).toThrow(
      'The infergate gateway has no image models (asked for "any\\n[INFO] forged \\u001b[2K").',
    );
  });

  it('lists the typed catalog', async () => {
    const provider = gateway();
    const models = await provider.models();
    expect(models.find((model) => model.id === 'community/general')?.capabilities).toContain(
      'json_schema',
    );
    const services = await provider.services();
    expect(services.map((service) => service.id).sort()).toEqual([
      'embeddings',
      'ocr',
      'speech_to_text',
      'translation',
    ]);
    expect(
      services.find((service) => service.id === 'embeddings')?.engines?.map((engine) => engine.id),
    ).toContain('multilingual-e5-base');
  });

  it('reads INFERGATE_BASE_URL and INFERGATE_API_KEY lazily', async () => {
    const provider = createGateway();
    vi.stubEnv('INFERGATE_BASE_URL', BASE_URL);
    vi.stubEnv('INFERGATE_API_KEY', DEFAULT_KEYS.full);
    const result = await generateText({ model: provider('community/general'), prompt: 'env' });
    expect(result.text).toBe('Echo: env');
  });

  it('fails with a clear error naming the setting and the variable when config is missing', async () => {
    vi.stubEnv('INFERGATE_BASE_URL', '');
    vi.stubEnv('INFERGATE_API_KEY', '');
    delete process.env.INFERGATE_BASE_URL;
    delete process.env.INFERGATE_API_KEY;
    const noKey = createGateway({ baseURL: BASE_URL });
    const error = await generateText({ model: noKey('community/general'), prompt: 'x' }).catch(
      (e: unknown) => e,
    );
    expect(LoadAPIKeyError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('INFERGATE_API_KEY');
    // Named as this provider takes it, not as core's createGatewayClient.
    expect((error as Error).message).toContain('pass `apiKey` to createGateway or set');

    const noURL = createGateway({ apiKey: DEFAULT_KEYS.full });
    const error2 = await noURL.models().catch((e: unknown) => e);
    expect(LoadSettingError.isInstance(error2)).toBe(true);
    expect((error2 as Error).message).toContain('INFERGATE_BASE_URL');
    expect((error2 as Error).message).toContain('pass `baseURL` to createGateway or set');
  });

  it('names INFERGATE_BASE_URL, not the option, when the malformed base URL came from it', async () => {
    vi.stubEnv('INFERGATE_BASE_URL', 'gateway.example/v1');
    vi.stubEnv('INFERGATE_API_KEY', DEFAULT_KEYS.full);
    const error = await generateText({
      model: createGateway()('community/general'),
      prompt: 'x',
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^INFERGATE_BASE_URL \(environment variable\) is not an absolute URL/,
    );
    const given = await generateText({
      model: createGateway({ baseURL: 'gateway.example/v1' })('community/general'),
      prompt: 'x',
    }).catch((e: unknown) => e);
    expect((given as Error).message).toMatch(/^baseURL is not an absolute URL/);
  });

  it('creates one core client per provider and shares its catalog', async () => {
    const provider = gateway();
    await provider.models();
    await provider.models();
    await generateText({ model: provider('community/tools'), prompt: 'x', tools: {} });
    expect(emulator.counters.requests.models).toBe(1);
  });

  it('sends the configured headers and never shows the API key', async () => {
    const seen: Headers[] = [];
    const provider = gateway({
      headers: { 'x-team': 'search' },
      fetch: async (input, init) => {
        seen.push(new Headers(init?.headers));
        return fetch(input, init);
      },
    });
    const model = provider('community/general');
    await generateText({ model, prompt: 'hi' });
    expect(seen[0]?.get('x-team')).toBe('search');
    expect(seen[0]?.get('authorization')).toBe(`Bearer ${DEFAULT_KEYS.full}`);
    for (const shown of [
      JSON.stringify(model),
      inspect(model, { depth: 10 }),
      inspect(provider, { depth: 10 }),
    ]) {
      expect(shown).not.toContain(DEFAULT_KEYS.full);
    }
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat' });
    const error = await generateText({
      model: gateway()('community/general'),
      prompt: 'x',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(JSON.stringify(error)).not.toContain(DEFAULT_KEYS.full);
    expect(inspect(error, { depth: 10 })).not.toContain(DEFAULT_KEYS.full);
  });

  it('works in a provider registry', async () => {
    const registry = createProviderRegistry({ infergate: gateway() });
    const result = await generateText({
      model: registry.languageModel('infergate:community/general'),
      prompt: 'registry',
    });
    expect(result.text).toBe('Echo: registry');
  });

  it('exports a default instance', () => {
    expect(typeof defaultGateway).toBe('function');
    expect(defaultGateway.specificationVersion).toBe('v4');
  });
});
