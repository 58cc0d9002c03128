/**
 * With `available_nodes` 0 "a request to the service gets error `provider_unavailable`" (spec
 * §2.3), and the engines run on the service's providers: none is available then. So the
 * embeddings entry lists no engine, and a request without `model` is refused as unavailable, not
 * told to pick one of engines it cannot use.
 */
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { call, errorBodyOf, type Json } from './helpers';

const noProvider = { services: { embeddings: { availableNodes: 0 } } };

describe('embeddings with no provider online', () => {
  it('GET /capabilities lists no engine for it', async () => {
    const response = await call(createEmulator(noProvider), '/capabilities');
    const body = (await response.json()) as { data: Json[] };
    const entry = body.data.find((service) => service.id === 'embeddings');
    expect(entry).toMatchObject({ available_nodes: 0, engines: [] });
  });

  it('a request without model gets provider_unavailable', async () => {
    const response = await call(createEmulator(noProvider), '/embeddings', {
      body: { input: 'hello' },
    });
    expect(await errorBodyOf(response)).toMatchObject({
      status: 503,
      code: 'provider_unavailable',
    });
  });

  it('a request naming an engine gets provider_unavailable', async () => {
    const response = await call(createEmulator(noProvider), '/embeddings', {
      body: { input: 'hello', model: 'all-minilm-l6-v2' },
    });
    expect(await errorBodyOf(response)).toMatchObject({
      status: 503,
      code: 'provider_unavailable',
    });
  });
});
