import { describe, expect, it } from 'vitest';
import { DEFAULT_KEYS, defaultScenario } from './default-scenario';

describe('defaultScenario', () => {
  it('has the default keys of the contract', () => {
    const keys = defaultScenario().keys;
    expect(Object.keys(keys).sort()).toEqual(Object.values(DEFAULT_KEYS).sort());
    expect(keys[DEFAULT_KEYS.full]).toMatchObject({ allowUnshielded: true, offlineFallback: true });
    expect(keys[DEFAULT_KEYS.shielded]!.allowUnshielded).toBe(false);
    expect(keys[DEFAULT_KEYS.nofallback]).toMatchObject({
      allowUnshielded: true,
      offlineFallback: false,
    });
    expect(keys[DEFAULT_KEYS.limited]!.allowedModels).toEqual(['community/general']);
  });

  it('has the default models of the contract', () => {
    const models = defaultScenario().models;
    expect(Object.keys(models).slice(0, 6)).toEqual([
      'community/general',
      'community/plain',
      'community/streamer',
      'community/tools',
      'community/json-object',
      'community/json-schema',
    ]);
    expect(Object.keys(models).filter((id) => id.startsWith('combo/'))).toEqual([
      'combo/none',
      'combo/s',
      'combo/t',
      'combo/o',
      'combo/j',
      'combo/st',
      'combo/so',
      'combo/sj',
      'combo/to',
      'combo/tj',
      'combo/oj',
      'combo/sto',
      'combo/stj',
      'combo/soj',
      'combo/toj',
      'combo/stoj',
    ]);
    expect(models['my/laptop-model']).toMatchObject({
      online: false,
      fallback: 'pool-a/llama-3-8b',
    });
    expect(models['pool-a/llama-3-8b']).toMatchObject({ pool: 'pool-a', copies: 2 });
  });

  it('returns a fresh copy each time', () => {
    const a = defaultScenario();
    a.models['community/plain']!.online = false;
    expect(defaultScenario().models['community/plain']!.online).toBe(true);
  });

  it('is JSON-serialisable', () => {
    const scenario = defaultScenario();
    expect(JSON.parse(JSON.stringify(scenario))).toEqual(scenario);
  });
});
