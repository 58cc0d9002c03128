// Every listed model's breaker open (rv-steer7 F2): after its cooldown a model's first call is its
// probe — a `circuit-probe` event, its failure a failed probe that opens it again for twice as long
// — even though no other candidate is left; calls meanwhile are tried anyway (the caller asked),
// none of them a second probe. Cooldowns pass on core's clock, moved by hand.
import { emulate, steppedClock } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { hi, only, recordingClient } from './helpers';

const list = { fallbackModels: ['community/streamer'] };
// A cooldown no loaded machine lets pass between two calls: only the moved clock ends it.
const breaker = { failures: 2, cooldownMs: 60_000, maxCooldownMs: 600_000 };

let clock: ReturnType<typeof steppedClock> | undefined;
afterEach(() => {
  clock?.restore();
  clock = undefined;
});

/** Both listed models tripped (2 failures each): a client and its chat events. */
async function bothTripped(generalFailsAfter: number) {
  clock = steppedClock();
  const gateway = await emulate();
  const { client, events } = recordingClient(gateway, { circuitBreaker: breaker, maxRetries: 0 });
  const { emulator } = gateway;
  const general = { fault: 'bad_gateway', model: 'community/general' } as const;
  emulator.injectFault({ ...general, times: 2 + generalFailsAfter });
  emulator.injectFault({ fault: 'bad_gateway', model: 'community/streamer', times: 2 });
  for (let i = 0; i < 2; i++) await client.chat(hi(), list).catch(() => undefined);
  expect(only(events, 'circuit-open').map((event) => event.model)).toEqual([
    'community/general',
    'community/streamer',
  ]);
  return { client, events, emulator, clock };
}

describe('every listed model open: the probe still comes first', () => {
  it("after the cooldown the first call probes; the probe's failure opens it for twice as long", async () => {
    const { client, events, clock } = await bothTripped(1);
    clock.ahead(60_001);
    const mark = events.length;
    const result = await client.chat(hi(), list);
    expect(result.servedModel).toBe('community/streamer');
    const after = events.slice(mark);
    expect(only(after, 'circuit-probe').map((event) => event.model)).toContain('community/general');
    expect(only(after, 'circuit-open')).toMatchObject([
      { model: 'community/general', cooldownMs: 120_000 },
    ]);
    // Its doubled cooldown is kept: the next call plans around it, the streamer answering.
    clock.ahead(60_001);
    expect((await client.chat(hi(), list)).route.hops[0]).toMatchObject({
      model: 'community/general',
      outcome: 'skipped',
      reason: 'circuit_open',
    });
  });

  it('calls at once after the cooldown: one circuit-probe per model, the others tried anyway', async () => {
    const { client, events, emulator, clock } = await bothTripped(0);
    clock.ahead(60_001);
    // Both answer slowly: the later calls plan while both probes are in flight.
    for (const model of ['community/general', 'community/streamer']) {
      emulator.injectFault({ fault: 'slow_headers', model, ms: 50, times: 4 });
    }
    const mark = events.length;
    const calls = await Promise.all(Array.from({ length: 4 }, () => client.chat(hi(), list)));
    // The first call probes the first model, the second the other (a call takes one probe, the
    // other model's left for the next call); the rest are tried anyway, on the first planned.
    expect(calls.map((result) => result.servedModel).sort()).toEqual([
      'community/general',
      'community/general',
      'community/general',
      'community/streamer',
    ]);
    const probes = only(events.slice(mark), 'circuit-probe').map((event) => event.model);
    expect(probes.sort()).toEqual(['community/general', 'community/streamer']);
    const closed = only(events.slice(mark), 'circuit-close').map((event) => event.model);
    expect(new Set(closed)).toEqual(new Set(['community/general', 'community/streamer']));
  });
});
