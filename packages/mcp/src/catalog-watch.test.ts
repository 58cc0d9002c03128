import type { GatewayService } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { availabilityOf } from './catalog-watch';

const service = (id: string, extra: Partial<GatewayService> = {}) =>
  ({ id, available_nodes: 1, ...extra }) as GatewayService;

describe('availabilityOf: core’s availability rule, as both adapters apply it', () => {
  it('hides a tool only when its service reports 0 nodes', () => {
    const tools = availabilityOf([
      service('translation', { available_nodes: 0 }),
      service('ocr'),
      service('speech_to_text'),
      service('embeddings'),
    ]);
    expect(tools.translate).toBe(false);
    expect(tools.ocr && tools.transcribe && tools.embed && tools.similarity).toBe(true);
  });

  it('leaves the gateway to decide for a missing count or an unlisted service', () => {
    const tools = availabilityOf([
      service('translation', { available_nodes: undefined as unknown as number }),
    ]);
    expect(tools.translate).toBe(true);
    expect(tools.ocr).toBe(true);
  });
});
