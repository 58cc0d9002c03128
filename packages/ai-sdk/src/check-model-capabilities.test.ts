import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { capabilityError } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { UnsupportedModelCapabilityError } from './check-model-capabilities';

describe('UnsupportedModelCapabilityError', () => {
  it("is an UnsupportedFunctionalityError with core's wording and fields", () => {
    const refusal = capabilityError({
      model: 'community/plain',
      needs: ['chat', 'streaming'],
      capabilities: ['chat'],
      catalog: [
        {
          id: 'community/general',
          object: 'model',
          owned_by: 'service-community',
          kind: 'chat',
          capabilities: ['chat', 'streaming', 'tools'],
        },
      ],
      purpose: 'streamText',
    });
    const error = new UnsupportedModelCapabilityError(refusal);
    expect(UnsupportedFunctionalityError.isInstance(error)).toBe(true);
    expect(error.functionality).toBe('streaming');
    expect(error.message).toBe(refusal.message);
    expect(error.message).toBe(
      'Model "community/plain" lacks streaming, needed for streamText (it has: chat). Models with chat, streaming: community/general.',
    );
    expect(error.modelId).toBe('community/plain');
    expect(error.missing).toEqual(['streaming']);
    expect(error.alternatives).toEqual(['community/general']);
    expect(error.cause).toBe(refusal);
  });
});
