import { emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayChatModel, GatewayEmbeddings } from '../src/index';
import { API_KEY } from './helpers';

const { baseURL: BASE_URL } = await emulate({ as: 'msw', hooks: { afterAll } });
afterEach(() => vi.unstubAllEnvs());

describe('configured from the environment, over the real fetch (msw)', () => {
  it('reads INFERGATE_BASE_URL and INFERGATE_API_KEY', async () => {
    vi.stubEnv('INFERGATE_BASE_URL', BASE_URL);
    vi.stubEnv('INFERGATE_API_KEY', API_KEY);
    const model = await GatewayChatModel.create('community/general');
    expect((await model.invoke('from env')).content).toBe('Echo: from env');
    const chunks = [];
    for await (const chunk of await model.stream('streamed')) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.content).join('')).toBe('Echo: streamed');
    const vectors = await new GatewayEmbeddings({ model: 'all-minilm-l6-v2' }).embedDocuments([
      'a',
      'b',
    ]);
    expect(vectors.map((vector) => vector.length)).toEqual([384, 384]);
    // Nothing about the key ends up in what LangChain serialises.
    expect(JSON.stringify(model)).not.toContain(API_KEY);
  });

  it('without them, the error names the setting as the class that was given it takes it', async () => {
    vi.stubEnv('INFERGATE_BASE_URL', '');
    vi.stubEnv('INFERGATE_API_KEY', API_KEY);
    const model = new GatewayChatModel('community/general');
    await expect(model.invoke('hi')).rejects.toMatchObject({
      code: 'configuration_error',
      message:
        'No gateway base URL: pass `baseURL` to new GatewayChatModel or set the INFERGATE_BASE_URL environment variable',
    });
    await expect(new GatewayEmbeddings().embedQuery('hi')).rejects.toThrow(
      'pass `baseURL` to new GatewayEmbeddings',
    );
    vi.stubEnv('INFERGATE_BASE_URL', BASE_URL);
    vi.stubEnv('INFERGATE_API_KEY', '');
    await expect(GatewayChatModel.create('community/general')).rejects.toThrow(
      'No API key: pass `apiKey` to GatewayChatModel.create or set the INFERGATE_API_KEY environment variable',
    );
  });
});
