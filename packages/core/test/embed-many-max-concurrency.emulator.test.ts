// `embedMany`'s `maxConcurrency` (docs/gateway-protocol.md §2.5 the key's slots, §6 the batches):
// at most that many of the call's batches in flight, in input order, within the key's budget;
// every text still checked before any request; the first failure stops the batches not yet sent.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, DEFAULT_KEYS, totalRequests } from './helpers';

const ENGINE = 'all-minilm-l6-v2';
/** 256 short texts: 4 batches of 64. */
const TEXTS = Array.from({ length: 256 }, (_, i) => `text ${i}`);

describe('embedMany maxConcurrency', () => {
  it('keeps at most that many batches in flight, vectors in input order', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const expected = await client.embedMany(TEXTS, { model: ENGINE });
    gateway.reset();
    // Answers held: without the bound all 4 batches would be in flight (the key's budget is 4).
    const release = gateway.hold('embeddings');
    const call = client.embedMany(TEXTS, { model: ENGINE, maxConcurrency: 2 });
    await gateway.untilHeld(2);
    // (Held, these two cannot end: a third sent now would be one too many.)
    expect(gateway.counters.requests.embeddings).toBe(2);
    release();
    expect(await call).toEqual(expected);
    expect(gateway.counters.requests.embeddings).toBe(4);
    expect(gateway.counters.maxInflight[DEFAULT_KEYS.full]).toBe(2);
  });

  it('checks every text before sending any batch', async () => {
    const gateway = await emulate();
    const texts = TEXTS.map((text, i) => (i === 200 ? '' : text));
    const call = clientOn(gateway).embedMany(texts, { model: ENGINE, maxConcurrency: 1 });
    const error = await caught(call, isGatewayError);
    expect([error.code, error.field]).toEqual(['invalid_request_error', 'texts[200]']);
    expect(totalRequests(gateway.emulator)).toBe(0);
  });

  it('the first failing batch stops the batches not yet sent', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetries: 1 });
    await client.embeddingEngines();
    // Both attempts of the first batch fail (a 502, then its one retry).
    gateway.emulator.injectFault({ fault: 'bad_gateway', endpoint: 'embeddings', times: 2 });
    const call = client.embedMany(TEXTS, { model: ENGINE, maxConcurrency: 1 });
    const error = await caught(call, isGatewayError);
    expect(error.status).toBe(502);
    expect(gateway.counters.requests.embeddings).toBe(2);
  });

  it("the caller's abort, one batch in flight and the others waiting, fails as embed's: aborted", async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    // (A client that has embedded once: its connection open, as in a long-lived app.)
    await client.embed({ input: 'warm', model: ENGINE });
    const release = gateway.hold('embeddings');
    const caller = new AbortController();
    const options = { model: ENGINE, maxConcurrency: 1, signal: caller.signal };
    const call = client.embedMany(TEXTS, options);
    await gateway.untilHeld(1);
    caller.abort();
    const error = await caught(call, isGatewayError);
    release();
    expect(error.code).toBe('aborted');
    expect(error.cause).toBe(caller.signal.reason);
  });

  it.each([0, 1.5, '2', Number.POSITIVE_INFINITY])(
    'refuses %j before anything is sent, naming the option',
    async (value) => {
      const gateway = await emulate();
      const options = { model: ENGINE, maxConcurrency: value as number };
      const error = await caught(clientOn(gateway).embedMany(TEXTS, options), isGatewayError);
      expect(error).toMatchObject({ code: 'configuration_error', field: 'maxConcurrency' });
      expect(error.message).toMatch(/^maxConcurrency \(call option\) must be an integer ≥ 1, got /);
      expect(totalRequests(gateway.emulator)).toBe(0);
    },
  );
});
