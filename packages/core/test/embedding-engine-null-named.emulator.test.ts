// `null` as an embeddings `model` is none named (as an adapter gives an unset one), for
// `resolveEmbeddingEngine` as for `embed` and `embedMany`: the only engine listed, not an engine
// called "null" (rv-28f F3).
import { emulate } from '@infergate/emulator/testing';
import { expect, it } from 'vitest';
import { clientOn } from './helpers';

it('resolveEmbeddingEngine(null) gives the only engine listed', async () => {
  const gateway = await emulate({
    scenario: {
      services: {
        embeddings: {
          name: 'Embeddings',
          availableNodes: 1,
          capacity: 4,
          engines: {
            'multilingual-e5-base': null,
            'all-minilm-l6-v2': {
              name: 'all-MiniLM-L6-v2 (English)',
              capacity: 4,
              available: true,
              dimensions: [384],
              maxTextBytes: null,
              inputTypes: false,
            },
          },
        },
      },
    },
  });
  const client = clientOn(gateway);
  const engine = await client.resolveEmbeddingEngine(null as never);
  expect(engine.id).toBe('all-minilm-l6-v2');
});
