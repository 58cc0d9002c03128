import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import type { GatewayModel } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import {
  missingCapabilities,
  modelsWithCapabilities,
  UnsupportedModelCapabilityError,
} from './check-model-capabilities';

const model = (id: string, capabilities: string[]): GatewayModel => ({
  id,
  object: 'model',
  owned_by: 'service-community',
  kind: 'chat',
  capabilities,
});

describe('capability checks', () => {
  it('lists what is missing', () => {
    expect(
      missingCapabilities(['chat', 'streaming'], ['streaming', 'tools', 'json_schema']),
    ).toEqual(['tools', 'json_schema']);
  });

  it('finds the models that have everything needed', () => {
    const models = [
      model('a', ['chat', 'streaming', 'tools']),
      model('b', ['chat', 'streaming']),
      model('c', ['chat', 'tools']),
    ];
    expect(modelsWithCapabilities(models, ['streaming', 'tools'])).toEqual(['a']);
  });

  it('is an UnsupportedFunctionalityError naming model, feature and alternatives', () => {
    const error = new UnsupportedModelCapabilityError({
      modelId: 'community/plain',
      missing: ['streaming'],
      needed: ['streaming'],
      alternatives: ['community/general', 'community/streamer'],
    });
    expect(UnsupportedFunctionalityError.isInstance(error)).toBe(true);
    expect(error.functionality).toBe('streaming');
    expect(error.message).toContain('community/plain');
    expect(error.message).toContain('streaming');
    expect(error.message).toContain('community/general, community/streamer');
  });
});
