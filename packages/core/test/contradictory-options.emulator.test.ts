import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { createGatewayClient } from '../src/index';
import { caught, DEFAULT_KEYS, harness, hi } from './helpers';

// Values that contradict each other are refused like unknown keys, before anything is sent, naming
// both fields and values (docs/gateway-protocol.md §4.7); values that only look odd are taken.

const create = (options: GatewayClientOptions) =>
  createGatewayClient({ baseURL: 'https://gw.example/v1', apiKey: DEFAULT_KEYS.full, ...options });

describe('a hedge that could never be sent', () => {
  it('is refused at creation: afterMs not less than firstChunkTimeoutMs', () => {
    expect(() => create({ firstChunkTimeoutMs: 100, hedge: { afterMs: 5000 } })).toThrow(
      'hedge.afterMs (client option) (5000) is not less than firstChunkTimeoutMs (100): the stall moves the call on before the hedge is due',
    );
    expect(() => create({ firstChunkTimeoutMs: 100, hedge: { afterMs: 100 } })).toThrowError(
      expect.objectContaining({ code: 'configuration_error', field: 'hedge.afterMs' }),
    );
  });

  it('is refused at creation: afterMs not less than the deadline', () => {
    expect(() => create({ timeoutMs: 1000, hedge: { afterMs: 2000 } })).toThrow(
      'hedge.afterMs (client option) (2000) is not less than timeoutMs (1000): the hedge would never be sent',
    );
  });

  it("is refused at the call, the call's values over its client's, sending nothing", async () => {
    const { client, emulator } = await harness({ firstChunkTimeoutMs: 100 });
    const fallbackModels = ['community/plain'];
    const error = await caught(() =>
      client.chat(hi(), { fallbackModels, hedge: { afterMs: 5000 } }),
    );
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'hedge.afterMs' });
    expect(error.message).toBe(
      "hedge.afterMs (call option) (5000, the call's) is not less than firstChunkTimeoutMs (100, the client's): the stall moves the call on before the hedge is due",
    );
    const stream = await caught(() =>
      client.chatStream(hi(), { hedge: { afterMs: 50 }, firstChunkTimeoutMs: 20 }),
    );
    expect(stream.message).toContain(
      "(50, the call's) is not less than firstChunkTimeoutMs (20, the call's)",
    );
    expect(emulator.counters.requests.chat).toBe(0);
    expect(emulator.counters.requests.models ?? 0).toBe(0);
  });

  it("is refused at the call from the client's hedge and the call's timeout", async () => {
    const { client, emulator } = await harness({ hedge: { afterMs: 800 } });
    const error = await caught(() => client.chat(hi(), { timeoutMs: 500 }));
    expect(error.message).toBe(
      "hedge.afterMs (call option) (800, the client's) is not less than timeoutMs (500, the call's): the hedge would never be sent",
    );
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it("'auto', a hedge due before the stall, and hedge: false pass", async () => {
    expect(() => create({ firstChunkTimeoutMs: 100, hedge: { afterMs: 'auto' } })).not.toThrow();
    const { client } = await harness({ firstChunkTimeoutMs: 60_000 });
    const answered = { answer: { text: 'Echo: hello there' } };
    await expect(client.chat(hi(), { hedge: { afterMs: 30_000 } })).resolves.toMatchObject(
      answered,
    );
    await expect(
      client.chat(hi(), { hedge: false, firstChunkTimeoutMs: 30_000 }),
    ).resolves.toMatchObject(answered);
  });
});

describe('a stall timeout longer than the deadline is taken (the deadline ends the call first)', () => {
  it('at creation and at the call', async () => {
    expect(() => create({ timeoutMs: 1000, firstChunkTimeoutMs: 60_000 })).not.toThrow();
    const { client } = await harness();
    const result = await client.chat(hi(), { timeoutMs: 1000, firstChunkTimeoutMs: 60_000 });
    expect(result.answer.text.length).toBeGreaterThan(0);
  });
});

describe("structuredOutput's keys are checked on every chat call, a schema asked for or not", () => {
  it.each([
    [
      { method: ['tools'] },
      'unknown option `method` in structuredOutput — did you mean `methods`?',
    ],
    [
      { methods: ['tools'], lastAnwser: 'returned' },
      'unknown option `lastAnwser` in structuredOutput — did you mean `lastAnswer`?',
    ],
  ])('%j is refused, sending nothing', async (structuredOutput, message) => {
    const { client, emulator } = await harness();
    const chat = await caught(() => client.chat(hi(), { structuredOutput } as never));
    expect(chat).toMatchObject({ code: 'invalid_request_error' });
    expect(chat.message).toBe(message);
    const stream = await caught(() => client.chatStream(hi(), { structuredOutput } as never));
    expect(stream.message).toBe(message);
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('a valid one on a call without a schema is taken', async () => {
    const { client } = await harness();
    const structuredOutput = { methods: ['tools'], lastAnswer: 'returned' } as const;
    await expect(client.chat(hi(), { structuredOutput })).resolves.toBeDefined();
  });
});
