import { APICallError, NoSuchModelError } from '@ai-sdk/provider';
import { emulate } from '@infergate/emulator/testing';
import { embedMany } from 'ai';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../index';

const KEPT = 'multilingual-e5-base';

describe('an embedding engine the gateway no longer has, while the cached list still names it', () => {
  it("is a NoSuchModelError whose cause is the gateway's 404 answer", async () => {
    // Only the multilingual engine: the model's first call takes it and keeps it.
    const gateway = await emulate({
      scenario: { services: { embeddings: { engines: { 'all-minilm-l6-v2': null } } } },
    });
    const model = createGateway({ ...gateway.connection, catalogTtlMs: 60_000 }).embeddingModel();
    expect((await embedMany({ model, values: ['indexed'] })).embeddings[0]).toHaveLength(768);
    // The operator swaps engines; the cached `GET /capabilities` still lists the kept one.
    const { engines } = gateway.emulator.scenario.services.embeddings;
    gateway.emulator.scenario.services.embeddings.engines = {
      'all-minilm-l6-v2': { ...engines[KEPT]!, name: 'MiniLM' },
    };

    const error = await embedMany({ model, values: ['query'], maxRetries: 0 }).catch(
      (caught: unknown) => caught,
    );
    expect(NoSuchModelError.isInstance(error)).toBe(true);
    const refused = error as NoSuchModelError;
    expect([refused.modelId, refused.modelType]).toEqual([KEPT, 'embeddingModel']);
    expect(refused.message).toContain(KEPT);
    // The answer itself stays reachable: status, code and body.
    expect(APICallError.isInstance(refused.cause)).toBe(true);
    const answer = refused.cause as APICallError;
    expect(answer.statusCode).toBe(404);
    expect((answer.data as { code?: string }).code).toBe('model_not_found');
    expect(answer.responseBody).toContain('model_not_found');
    expect(gateway.emulator.counters.requests.embeddings).toBe(2);
  });
});
