import { describe, expect, it } from 'vitest';
import { DEFAULT_KEYS, defaultScenario, resolveScenario } from './scenario';

describe('scenario', () => {
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

  it('merges objects, replaces arrays and removes entries set to null', () => {
    const scenario = resolveScenario({
      keys: {
        'extra-key': { allowUnshielded: false, offlineFallback: false },
        [DEFAULT_KEYS.limited]: null,
      },
      models: {
        'community/plain': null,
        'community/streamer': { online: false },
        'community/general': { capabilities: ['chat'] },
      },
      services: { ocr: { availableNodes: 0 } },
      latencyMs: { min: 1, max: 2 },
    });
    expect(scenario.keys['extra-key']).toBeDefined();
    expect(scenario.keys[DEFAULT_KEYS.limited]).toBeUndefined();
    expect(scenario.keys[DEFAULT_KEYS.full]).toBeDefined();
    expect(scenario.models['community/plain']).toBeUndefined();
    expect(scenario.models['community/streamer']).toMatchObject({
      online: false,
      capabilities: ['chat', 'streaming'],
    });
    expect(scenario.models['community/general']!.capabilities).toEqual(['chat']);
    expect(scenario.services.ocr).toMatchObject({ availableNodes: 0, name: 'Text from images' });
    expect(scenario.latencyMs).toEqual({ min: 1, max: 2 });
  });

  it('fills what partial new entries leave out', () => {
    const scenario = resolveScenario({
      keys: { k: {} },
      models: { 'my/new': {}, 'pool-b/x': { capabilities: ['chat', 'tools'] }, 'lab/y': {} },
      services: { embeddings: { engines: { 'tiny-engine': {} } } },
    });
    expect(scenario.keys.k).toEqual({ allowUnshielded: false, offlineFallback: false });
    expect(scenario.models['my/new']).toEqual({
      owned_by: 'service-owner',
      capabilities: ['chat'],
      online: true,
    });
    expect(scenario.models['pool-b/x']!.owned_by).toBe('service-pool');
    expect(scenario.models['lab/y']!.owned_by).toBe('service-community');
    expect(scenario.services.embeddings.engines['tiny-engine']).toEqual({
      name: 'tiny-engine',
      available: true,
      dimensions: [384],
    });
  });

  it('is JSON-serialisable', () => {
    const scenario = defaultScenario();
    expect(JSON.parse(JSON.stringify(scenario))).toEqual(scenario);
  });
});
