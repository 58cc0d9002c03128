// Per-model circuit breakers (issue 46): a listed model that keeps failing is planned around for a
// cooldown, then probed once.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';
import { DEFAULT_KEYS, hi, only, recordingClient } from './helpers';

const list = { fallbackModels: ['community/streamer'] };
// A cooldown long enough that a loaded machine plans the next call inside it (150 ms was not:
// a stall of a few hundred ms let the breaker close before the call that should skip the model).
const breaker = { failures: 2, cooldownMs: 2_000, maxCooldownMs: 10_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('circuit breakers of calls with fallbackModels', () => {
  it('open after N failures in a row: calls skip the model without a request', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { circuitBreaker: breaker });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
    for (let i = 0; i < 2; i++) {
      const result = await client.chat(hi(), list);
      expect(result.servedModel).toBe('community/streamer');
    }
    expect(only(events, 'circuit-open')).toMatchObject([
      { model: 'community/general', cooldownMs: 2_000 },
    ]);
    const before = emulator.counters.requests.chat;
    const result = await client.chat(hi(), list);
    expect(result.route.hops).toEqual([
      { model: 'community/general', outcome: 'skipped', reason: 'circuit_open' },
      { model: 'community/streamer', outcome: 'answered' },
    ]);
    expect(emulator.counters.requests.chat - before).toBe(1);
    expect(only(events, 'model-skipped').at(-1)).toMatchObject({ reason: 'circuit_open' });
  });

  it('after the cooldown one probe goes through; its success closes the breaker', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway, { circuitBreaker: breaker });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 2 });
    for (let i = 0; i < 2; i++) await client.chat(hi(), list);
    expect((await client.chat(hi(), list)).route.hops[0]?.outcome).toBe('skipped');
    await sleep(2_100);
    // Healed: the probe answers, and the model is used again.
    expect((await client.chat(hi(), list)).servedModel).toBe('community/general');
    expect((await client.chat(hi(), list)).servedModel).toBe('community/general');
  });

  it('a failed probe opens it again, for twice the cooldown', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { circuitBreaker: breaker });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'service_unavailable', model: 'community/general' });
    for (let i = 0; i < 2; i++) await client.chat(hi(), list);
    await sleep(2_100);
    await client.chat(hi(), list);
    expect(only(events, 'circuit-open').map((event) => event.cooldownMs)).toEqual([2_000, 4_000]);
  });

  it('never skips the only candidate: the caller asked for it', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway, { circuitBreaker: breaker, maxRetries: 0 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 2 });
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/streamer', times: 2 });
    for (let i = 0; i < 2; i++) await client.chat(hi(), list).catch(() => undefined);
    // Both breakers are open: neither is skipped, the call is tried as asked.
    const result = await client.chat(hi(), list);
    expect(result.route.hops.some((hop) => hop.outcome === 'skipped')).toBe(false);
    expect(result.servedModel).toBe('community/general');
  });

  it("does not count a caller's 4xx, a busy model or a plain call", async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { circuitBreaker: breaker });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'model_busy', model: 'community/general', times: 4 });
    for (let i = 0; i < 4; i++) await client.chat(hi(), list);
    expect(only(events, 'circuit-open')).toEqual([]);
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 2 });
    await client.chat(hi(), { maxRetries: 0 }).catch(() => undefined);
    await client.chat(hi(), { maxRetries: 0 }).catch(() => undefined);
    expect(only(events, 'circuit-open')).toEqual([]);
  });

  it('circuitBreaker: false turns them off', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway, { circuitBreaker: false });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 5 });
    for (let i = 0; i < 5; i++) await client.chat(hi(), list);
    expect(emulator.counters.requests.chat).toBe(10);
  });

  it('is shared by the clients of one key and base URL in a realm', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway, { circuitBreaker: breaker });
    const { emulator, baseURL } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
    for (let i = 0; i < 2; i++) await client.chat(hi(), list);
    const other = createGatewayClient({
      baseURL,
      apiKey: DEFAULT_KEYS.full,
      fetch: emulator.fetch,
      circuitBreaker: breaker,
    });
    const result = await other.chat(hi(), list);
    expect(result.route.hops[0]).toMatchObject({ outcome: 'skipped', reason: 'circuit_open' });
  });
});
