import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../client/client';
import { isGatewayError } from '../errors/errors';
import { checkEmbeddingsSettings } from './embeddings-settings';

describe('embeddings settings', () => {
  it('a string dimensions is shown quoted in the refusal of the call, and nothing is sent', async () => {
    const { emulator, connection } = await emulate();
    const client = createGatewayClient(connection);
    const error = await caught(client.embedMany(['a'], { dimensions: '256' as unknown as number }));
    expect(isGatewayError(error) && error.code).toBe('invalid_request_error');
    expect((error as Error).message).toContain('must be a positive integer, got "256"');
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it("an adapter's settings are refused by embedMany's rules, named as the adapter's", () => {
    const refused = (given: Record<string, unknown>) => {
      try {
        checkEmbeddingsSettings(given, 'GatewayEmbeddings option');
      } catch (error) {
        return isGatewayError(error) ? `${error.code}: ${error.message}` : error;
      }
      return 'accepted';
    };
    expect(refused({ dimensions: '256' })).toBe(
      'configuration_error: dimensions (GatewayEmbeddings option) must be an integer ≥ 1, got a string',
    );
    expect(refused({ maxConcurrency: 0 })).toBe(
      'configuration_error: maxConcurrency (GatewayEmbeddings option) must be an integer ≥ 1, got 0',
    );
    expect(refused({ dimensions: 256, maxConcurrency: 2 })).toBe('accepted');
    expect(refused({ dimensions: null, maxConcurrency: undefined })).toBe('accepted');
  });
});
