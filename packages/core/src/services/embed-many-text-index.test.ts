import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../client/client';
import { isGatewayError } from '../errors/errors';

// The engine takes at most 1500 bytes per text: the gateway (not core) refuses a longer one.
const scenario = {
  services: { embeddings: { engines: { 'all-minilm-l6-v2': { maxTextBytes: 1500 } } } },
};

describe("embedMany: the gateway's refusal of one text", () => {
  it('names the text by its index in the whole list, not in the batch that carried it', async () => {
    const { emulator, connection } = await emulate({ scenario });
    const client = createGatewayClient(connection);
    // 100 texts of ~900 bytes: more than one batch; text 80 is in the second.
    const texts = Array.from({ length: 100 }, (_, i) => `t${i} ${'y'.repeat(900)}`);
    texts[80] = 'z'.repeat(2000);
    const error = await caught(
      client.embedMany(texts, { model: 'all-minilm-l6-v2', maxConcurrency: 1 }),
      isGatewayError,
    );
    expect(emulator.counters.requests.embeddings).toBeGreaterThan(1);
    expect(error.code).toBe('invalid_request_error');
    expect(error.status).toBe(400);
    expect(error.field).toBe('texts[80]');
    expect(error.message).toMatch(/^`texts\[80\]` is 2000 bytes in UTF-8/);
  });

  it('names the one text of a list of one `text`, as core names it', async () => {
    const { connection } = await emulate({ scenario });
    const client = createGatewayClient(connection);
    const error = await caught(
      client.embedMany(['z'.repeat(2000)], { model: 'all-minilm-l6-v2' }),
      isGatewayError,
    );
    expect(error.field).toBe('text');
    expect(error.message).toMatch(/^`text` is 2000 bytes/);
  });
});
