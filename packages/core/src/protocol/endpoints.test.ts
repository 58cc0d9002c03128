import { describe, expect, it } from 'vitest';
import {
  ENDPOINTS,
  endpointName,
  isServiceAvailable,
  SERVICE_OF_TOOL,
  SERVICE_PATHS,
} from './endpoints';

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

  it('a service is unavailable only when it reports available_nodes 0 (missing: the gateway decides)', () => {
    expect(isServiceAvailable({ available_nodes: 0 })).toBe(false);
    expect(isServiceAvailable({ available_nodes: 2 })).toBe(true);
    expect(isServiceAvailable({} as { available_nodes: number })).toBe(true);
    expect(isServiceAvailable({ available_nodes: 'x' as unknown as number })).toBe(true);
  });
});
