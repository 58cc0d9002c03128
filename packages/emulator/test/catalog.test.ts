import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_KEYS } from '../src/index';
import { call, errorBodyOf, type Json } from './helpers';

async function listedIds(key: string, scenario?: Parameters<typeof createEmulator>[0]) {
  const response = await call(createEmulator(scenario), '/models', { key });
  expect(response.status).toBe(200);
  const body = (await response.json()) as Json;
  expect(body.object).toBe('list');
  return (body.data as Json[]).map((model) => model.id as string);
}

describe('authentication', () => {
  it.each([
    ['/models', 'GET'],
    ['/capabilities', 'GET'],
    ['/chat/completions', 'POST'],
    ['/embeddings', 'POST'],
    ['/ocr', 'POST'],
    ['/audio/transcriptions', 'POST'],
    ['/translations', 'POST'],
  ])('%s refuses a missing or unknown key with 401 invalid_api_key', async (path, method) => {
    const emulator = createEmulator();
    for (const key of [null, 'ig-wrong-key']) {
      const response = await call(emulator, path, { key, method });
      const error = await errorBodyOf(response);
      expect(error).toMatchObject({ status: 401, code: 'invalid_api_key' });
      expect(error.message).not.toContain('ig-wrong-key');
    }
  });

  it('refuses a non-Bearer authorization header', async () => {
    const emulator = createEmulator();
    const response = await call(emulator, '/models', {
      key: null,
      headers: { authorization: `Basic ${DEFAULT_KEYS.full}` },
    });
    expect(response.status).toBe(401);
  });

  it('answers 404 outside the API and counts nothing', async () => {
    const emulator = createEmulator();
    const response = await call(emulator, '/nope');
    expect(response.status).toBe(404);
    expect(Object.values(emulator.counters.requests).every((n) => n === 0)).toBe(true);
  });
});

describe('GET /models', () => {
  it('lists every online model for the full key, not the offline my/laptop-model', async () => {
    const ids = await listedIds(DEFAULT_KEYS.full);
    expect(ids).toContain('community/general');
    expect(ids).toContain('pool-a/llama-3-8b');
    expect(ids).toContain('my/desk-model');
    expect(ids).not.toContain('my/laptop-model');
    expect(ids.filter((id) => id.startsWith('combo/'))).toHaveLength(16);
  });

  it('hides my/... and pool models from a key without Allow Unshielded models', async () => {
    const ids = await listedIds(DEFAULT_KEYS.shielded);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => !id.startsWith('my/') && !id.startsWith('pool-'))).toBe(true);
  });

  it('lists only the allowed models of a limited key', async () => {
    expect(await listedIds(DEFAULT_KEYS.limited)).toEqual(['community/general']);
  });

  it('describes a model with the spec fields', async () => {
    const response = await call(createEmulator(), '/models');
    const body = (await response.json()) as Json;
    const pool = body.data.find((model: Json) => model.id === 'pool-a/llama-3-8b');
    expect(pool).toMatchObject({
      object: 'model',
      owned_by: 'service-pool',
      kind: 'chat',
      pool: 'pool-a',
      copies: 2,
      capabilities: ['chat', 'streaming', 'tools', 'json_object', 'json_schema'],
    });
    const plain = body.data.find((model: Json) => model.id === 'community/plain');
    expect(plain.capabilities).toEqual(['chat']);
    expect(plain.owned_by).toBe('service-community');
  });

  it('spells the 16 combo models from s, t, o, j with the matching capabilities', async () => {
    const response = await call(createEmulator(), '/models');
    const combos = ((await response.json()) as Json).data.filter((m: Json) =>
      m.id.startsWith('combo/'),
    );
    const flag = { s: 'streaming', t: 'tools', o: 'json_object', j: 'json_schema' } as const;
    const seen = new Set<string>();
    for (const model of combos) {
      const letters = model.id.slice(6) === 'none' ? '' : model.id.slice(6);
      const expected = ['chat', ...[...letters].map((l: string) => flag[l as keyof typeof flag])];
      expect(model.capabilities).toEqual(expected);
      seen.add(expected.slice(1).sort().join());
    }
    expect(seen.size).toBe(16);
    expect(combos.map((m: Json) => m.id)).toContain('combo/none');
    expect(combos.map((m: Json) => m.id)).toContain('combo/stoj');
  });

  it('lists a model that a scenario turns offline no more, and again when turned back', async () => {
    const emulator = createEmulator({ models: { 'community/plain': { online: false } } });
    const ids = async () =>
      ((await (await call(emulator, '/models')).json()) as Json).data.map((m: Json) => m.id);
    expect(await ids()).not.toContain('community/plain');
    emulator.scenario.models['community/plain']!.online = true;
    expect(await ids()).toContain('community/plain');
  });
});

describe('GET /capabilities', () => {
  it('lists the four services with endpoints and the embedding engines', async () => {
    const response = await call(createEmulator(), '/capabilities', { key: DEFAULT_KEYS.shielded });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body.object).toBe('list');
    const byId = Object.fromEntries(body.data.map((s: Json) => [s.id, s]));
    expect(Object.keys(byId).sort()).toEqual([
      'embeddings',
      'ocr',
      'speech_to_text',
      'translation',
    ]);
    expect(byId.translation).toMatchObject({ object: 'capability', endpoint: '/v1/translations' });
    expect(byId.ocr.endpoint).toBe('/v1/ocr');
    expect(byId.speech_to_text.endpoint).toBe('/v1/audio/transcriptions');
    expect(byId.embeddings.endpoint).toBe('/v1/embeddings');
    for (const service of body.data) expect(service.available_nodes).toBeGreaterThanOrEqual(1);
    expect(byId.embeddings.engines.map((e: Json) => e.id)).toEqual([
      'multilingual-e5-base',
      'all-minilm-l6-v2',
    ]);
    expect(byId.embeddings.engines[0].name).toContain('Multilingual');
    expect(byId.translation.engines).toBeUndefined();
  });

  it('reports available_nodes 0 and hides unavailable engines as the scenario says', async () => {
    const emulator = createEmulator({
      services: {
        ocr: { availableNodes: 0 },
        embeddings: { engines: { 'all-minilm-l6-v2': { available: false } } },
      },
    });
    const body = (await (await call(emulator, '/capabilities')).json()) as Json;
    const byId = Object.fromEntries(body.data.map((s: Json) => [s.id, s]));
    expect(byId.ocr.available_nodes).toBe(0);
    expect(byId.embeddings.engines.map((e: Json) => e.id)).toEqual(['multilingual-e5-base']);
  });
});

describe('GET /capabilities engines (the spec: id, name, capacity)', () => {
  const engines = async (scenario?: Parameters<typeof createEmulator>[0]) => {
    const body = (await (await call(createEmulator(scenario), '/capabilities')).json()) as Json;
    return body.data.find((s: Json) => s.id === 'embeddings').engines as Json[];
  };

  it('lists no dimensions for the default engines', async () => {
    for (const engine of await engines()) {
      expect(Object.keys(engine).sort()).toEqual(['capacity', 'id', 'name']);
    }
  });

  it('lists dimensions when the scenario gives them, unless listDimensions is false', async () => {
    const listed = await engines({
      services: {
        embeddings: {
          engines: {
            'bge-m3': { name: 'BGE M3', dimensions: [1024, 512] },
            'all-minilm-l6-v2': { listDimensions: true },
            'multilingual-e5-base': { dimensions: [768], listDimensions: false },
            plain: {},
          },
        },
      },
    });
    expect(Object.fromEntries(listed.map((e) => [e.id, e.dimensions]))).toEqual({
      'multilingual-e5-base': undefined,
      'all-minilm-l6-v2': [384],
      'bge-m3': [1024, 512],
      plain: undefined,
    });
  });
});

describe('emulator.fetch as a fetch function', () => {
  it('takes (url, init) like the global fetch', async () => {
    const emulator = createEmulator();
    const doFetch: typeof fetch = emulator.fetch;
    const response = await doFetch('https://gateway.test/v1/models', {
      headers: { authorization: `Bearer ${DEFAULT_KEYS.full}` },
    });
    expect(response.status).toBe(200);
    const byUrl = await emulator.fetch(new URL('https://gateway.test/v1/capabilities'), {
      headers: { authorization: `Bearer ${DEFAULT_KEYS.full}` },
    });
    expect(byUrl.status).toBe(200);
  });
});

describe('internal errors', () => {
  it('answers 500 text/plain when a broken scenario makes a handler fail', async () => {
    const emulator = createEmulator();
    emulator.scenario.services = undefined as never;
    const response = await call(emulator, '/capabilities');
    expect(response.status).toBe(500);
    expect(await response.text()).toMatch(/^infergate emulator internal error: TypeError/);
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
  });
});

describe('a model listed with a flaw (`listing`)', () => {
  it('no_capabilities leaves out the capabilities field, no_id the id', async () => {
    const emulator = createEmulator({
      models: {
        'x/unsaid': { capabilities: ['tools'], listing: 'no_capabilities' },
        'x/broken': { capabilities: ['chat'], listing: 'no_id', name: 'Broken' },
      },
    });
    const response = await call(emulator, '/models', { key: DEFAULT_KEYS.full });
    const entries = ((await response.json()) as Json).data as Json[];
    const unsaid = entries.find((entry) => entry.id === 'x/unsaid');
    expect(unsaid).toBeDefined();
    expect(unsaid && 'capabilities' in unsaid).toBe(false);
    const broken = entries.find((entry) => entry.name === 'Broken');
    expect(broken && 'id' in broken).toBe(false);
    expect(broken?.capabilities).toEqual(['chat']);
  });
});
