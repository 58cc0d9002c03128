// LangChain's retries are core's: the catalog read a call's gate makes is one request of that call
// (docs/gateway-protocol.md §4.2), retried by the call's maxRetries (the model's, else the client's
// 2) — 1 + maxRetries GET /models for a gateway that keeps failing it, never more.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';

describe("a LangChain call's catalog read", () => {
  it.each([
    [0, 1],
    [1, 2],
    [undefined, 3],
  ])('maxRetries %s: %i GET /models, no chat', async (maxRetries, reads) => {
    const { emulator, connection } = await emulate();
    // (Retry-After: 0: core's retries come at once.)
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'models', retryAfter: 0 });
    const model = new GatewayChatModel('community/general', { ...connection, maxRetries });
    await expect(model.invoke('hi')).rejects.toThrow();
    expect(emulator.counters.requests.models).toBe(reads);
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it("follows the call's maxRetries over the model's", async () => {
    const { emulator, connection } = await emulate();
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'models', retryAfter: 0 });
    const model = new GatewayChatModel('community/general', { ...connection, maxRetries: 2 });
    await expect(model.invoke('hi', { maxRetries: 0 })).rejects.toThrow();
    expect(emulator.counters.requests.models).toBe(1);
    await expect(model.invoke('hi', { maxRetries: 1 })).rejects.toThrow();
    expect(emulator.counters.requests.models).toBe(1 + 2);
    const streamed = async () => {
      for await (const _chunk of await model.stream('hi', { maxRetries: 0 })) {
        // read to the end
      }
    };
    await expect(streamed()).rejects.toThrow();
    expect(emulator.counters.requests.models).toBe(1 + 2 + 1);
    expect(emulator.counters.requests.chat).toBe(0);
  });
});
