import { describe, expect, it } from 'vitest';
import {
  ENDPOINTS,
  endpointName,
  isServiceOffered,
  SERVICE_OF_TOOL,
  SERVICE_PATHS,
} from './endpoints';
import type { GatewayService, ServiceId } from './wire-types';

describe('the endpoint table', () => {
  it('names each path once, and every service and tool maps into it', () => {
    const paths = Object.values(ENDPOINTS);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of Object.values(SERVICE_PATHS)) expect(endpointName(path)).toBeDefined();
    for (const service of Object.values(SERVICE_OF_TOOL))
      expect(SERVICE_PATHS[service]).toBeDefined();
    expect(endpointName('/audio/transcriptions')).toBe('transcription');
    expect(endpointName('/nope')).toBeUndefined();
  });

  it.each([
    ['reports available_nodes 0', { id: 'ocr', available_nodes: 0 }, 'ocr', false],
    ['reports a negative count', { id: 'ocr', available_nodes: -1 }, 'ocr', false],
    ['reports nodes', { id: 'ocr', available_nodes: 2 }, 'ocr', true],
    ['has no count', { id: 'ocr' }, 'ocr', true],
    ['has an unreadable count', { id: 'ocr', available_nodes: 'x' }, 'ocr', true],
    [
      'is embeddings without engines',
      { id: 'embeddings', available_nodes: 1, engines: [] },
      'embeddings',
      false,
    ],
    [
      'is embeddings with engines',
      { id: 'embeddings', available_nodes: 1, engines: [{ id: 'e' }] },
      'embeddings',
      true,
    ],
    ['is not listed', { id: 'translation', available_nodes: 0 }, 'ocr', true],
  ])('the availability rule: a service that %s is offered: %s', (_case, entry, id, offered) => {
    const services = [entry] as unknown as GatewayService[];
    expect(isServiceOffered(services, id as ServiceId)).toBe(offered);
  });

  it('the availability rule: before the list is read, every service is offered', () => {
    expect(isServiceOffered(undefined, 'ocr')).toBe(true);
  });
});
