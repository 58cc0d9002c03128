import { describe, expect, it } from 'vitest';
import { DEFAULT_KEYS } from './default-scenario';
import { resolveScenario } from './resolve-scenario';

describe('resolveScenario', () => {
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
});
