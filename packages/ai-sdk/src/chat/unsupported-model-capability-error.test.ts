import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import type { GatewayError } from '@infergate/core';
import { checkCapabilities } from '@infergate/core/internal';
import { describe, expect, it } from 'vitest';
import { UnsupportedModelCapabilityError } from './unsupported-model-capability-error';

/** The refusal core's capability rule throws for `check`. */
function capabilityError(check: Parameters<typeof checkCapabilities>[0]): GatewayError {
  try {
    checkCapabilities(check);
  } catch (refusal) {
    return refusal as GatewayError;
  }
  throw new Error('expected a refusal');
}

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

  it('has its own name and marker, and stays an UnsupportedFunctionalityError', () => {
    const refusal = capabilityError({
      model: 'community/plain',
      needs: ['chat', 'tools'],
      capabilities: ['chat'],
      catalog: [],
    });
    const error = new UnsupportedModelCapabilityError(refusal);
    expect(error.name).toBe('AI_UnsupportedModelCapabilityError');
    expect(UnsupportedModelCapabilityError.isInstance(error)).toBe(true);
    expect(UnsupportedFunctionalityError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(UnsupportedFunctionalityError);
    expect(error).toBeInstanceOf(UnsupportedModelCapabilityError);
    // The parent's instances are not ours.
    const plain = new UnsupportedFunctionalityError({ functionality: 'pdf' });
    expect(UnsupportedModelCapabilityError.isInstance(plain)).toBe(false);
    expect(UnsupportedModelCapabilityError.isInstance(undefined)).toBe(false);
    expect(String(error)).toMatch(/^AI_UnsupportedModelCapabilityError: /);
  });
});
