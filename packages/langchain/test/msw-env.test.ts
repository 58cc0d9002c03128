import { createEmulator } from '@infergate/emulator';
import { gatewayHandlers } from '@infergate/emulator/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GatewayChatModel, GatewayEmbeddings } from '../src/index';
import { API_KEY, BASE_URL } from './helpers';

const emulator = createEmulator();
const server = setupServer(...gatewayHandlers(emulator, BASE_URL));

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => vi.unstubAllEnvs());
afterAll(() => server.close());

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
});
