import { createGateway } from '@infergate/ai-sdk';
import { createGatewayClient } from '@infergate/core';
import { GatewayEmbeddings } from '@infergate/langchain';
import { embedMany } from 'ai';
import { describe, expect, it } from 'vitest';
import { type Cell, createCell, settle } from './harness/cell';
import { EMBED_ENGINE } from './harness/fixtures';
import { classify, SURFACES, type Surface } from './harness/surfaces';

/**
 * Many texts are split into several embeddings requests. A failure of any one of them must fail
 * the whole call — never a shorter list of vectors, never vectors out of order — and a retried
 * batch must give exactly the vectors of a clean run.
 */

const TEXTS = Array.from({ length: 200 }, (_, i) => `text number ${i} about topic ${i % 7}`);

/**
 * A fetch that answers the `nth` embeddings request (1-based) and every later one with an engine's
 * 500 page (a 500 is retried, so the retries of that batch fail too).
 */
function failingNth(cell: Cell, nth: number): Cell {
  let seen = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input as string | URL | Request, init);
    // From the nth request on: core's retry policy retries a 500, so one failure alone would heal.
    if (new URL(request.url).pathname.endsWith('/embeddings') && ++seen >= nth) {
      return new Response('Internal Server Error: the engine crashed', {
        status: 500,
        headers: { 'content-type': 'text/plain' },
      });
    }
    return cell.emulator.fetch(request);
  };
  return { ...cell, fetch };
}

async function embedAll(surface: Surface, cell: Cell): Promise<number[][]> {
  const connection = { baseURL: cell.baseURL, apiKey: cell.apiKey, fetch: cell.fetch };
  if (surface === 'core') {
    return createGatewayClient({ ...connection, retryBaseDelayMs: 1 }).embedMany(TEXTS, {
      model: EMBED_ENGINE,
    });
  }
  if (surface === 'langchain') {
    return new GatewayEmbeddings({ model: EMBED_ENGINE, ...connection }).embedDocuments(TEXTS);
  }
  const model = createGateway(connection).embeddingModel(EMBED_ENGINE);
  return (await embedMany({ model, values: TEXTS })).embeddings;
}

describe('embedding many texts in several requests', () => {
  for (const surface of SURFACES) {
    it(`${surface}: a retried batch gives exactly the clean vectors, in order`, async () => {
      const clean = await embedAll(surface, await createCell());
      expect(clean).toHaveLength(TEXTS.length);
      const cell = await createCell();
      cell.emulator.injectFault({ fault: 'bad_gateway', endpoint: 'embeddings', times: 1 });
      expect(await embedAll(surface, cell)).toEqual(clean);
      expect(await settle(cell)).toBe(true);
    });

    it(`${surface}: a failing later batch fails the whole call (no partial list)`, async () => {
      const base = await createCell();
      const cell = failingNth(base, 2);
      const outcome = await embedAll(surface, cell).then(
        (vectors) => ({ ok: true as const, vectors }),
        (error: unknown) => classify(error),
      );
      expect(outcome.ok, 'returned vectors although a batch failed').toBe(false);
      expect(!outcome.ok && outcome.code).toBe('upstream_error');
      expect(await settle(base)).toBe(true);
    });
  }
});
