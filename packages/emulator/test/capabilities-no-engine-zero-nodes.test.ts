/**
 * `available_nodes` of a service counts providers offering it now, and 0 is what answers
 * `provider_unavailable` (spec §2.3). Embeddings with no engine available answer exactly that, so
 * their entry says 0, whatever count the scenario gives the service.
 */
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index';
import { call, errorBodyOf, type Json } from './helpers';

async function embeddingsEntry(emulator: Emulator): Promise<Json> {
  const response = await call(emulator, '/capabilities');
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: Json[] };
  return body.data.find((entry) => entry.id === 'embeddings')!;
}

describe('GET /capabilities when no embedding engine is available', () => {
  it('reports available_nodes 0, as a request then gets provider_unavailable', async () => {
    const emulator = createEmulator({
      services: {
        embeddings: {
          engines: {
            'multilingual-e5-base': { available: false },
            'all-minilm-l6-v2': { available: false },
          },
        },
      },
    });
    const entry = await embeddingsEntry(emulator);
    expect(entry).toMatchObject({ available_nodes: 0, engines: [] });
    const refused = await call(emulator, '/embeddings', { body: { input: 'hello' } });
    expect(await errorBodyOf(refused)).toMatchObject({ code: 'provider_unavailable' });
  });

  it('follows the engines flipped at run time, and the scenario count when one is back', async () => {
    const emulator = createEmulator();
    const engines = Object.values(emulator.scenario.services.embeddings.engines);
    for (const engine of engines) engine.available = false;
    expect((await embeddingsEntry(emulator)).available_nodes).toBe(0);
    engines[0]!.available = true;
    expect((await embeddingsEntry(emulator)).available_nodes).toBe(2);
  });

  it('keeps the other services at their own counts', async () => {
    const emulator = createEmulator();
    for (const engine of Object.values(emulator.scenario.services.embeddings.engines)) {
      engine.available = false;
    }
    const response = await call(emulator, '/capabilities');
    const body = (await response.json()) as { data: Json[] };
    const counts = Object.fromEntries(body.data.map((entry) => [entry.id, entry.available_nodes]));
    expect(counts).toEqual({ translation: 2, ocr: 1, speech_to_text: 1, embeddings: 0 });
  });
});
