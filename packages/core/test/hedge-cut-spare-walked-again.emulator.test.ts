import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import {
  askingPlace,
  driveClock,
  hedgesOnDrivenClock,
  only,
  recordingClient,
  STRUCTURED_MODELS,
  settledAfter,
} from './helpers';

// A hedged structured stream recovers whenever the unhedged one would (rv-2hedge F2). Over
// fallbackModels [bad, good] the hedge takes the spare `good`: when `bad`'s content decided the race
// (the hedge cut) and its held answer then failed its check, `good` was never asked; when the
// hedge to `bad` won and failed, the healthy first model it cut was never asked again. The run
// that won now takes over what the cut run had left (docs/gateway-protocol.md §4.8 item 5).

const FOREVER = 60_000;
const HEDGE = { afterMs: 30, maxExtra: 1 };
const BAD = 'community/so-claimed';
const GOOD = 'community/so-native';

/** A gateway of the structured models, `first` slow to its first content by `firstMs`. */
async function gatewayWith(first: string, firstMs: number) {
  const models = {
    ...STRUCTURED_MODELS,
    [first]: { ...STRUCTURED_MODELS[first]!, firstChunkMs: firstMs },
  };
  const gateway = await emulate({ scenario: { models } });
  const { client, events } = recordingClient(gateway);
  await client.models();
  return { gateway, client, events };
}

describe('a hedged structured stream over [bad, good] recovers as the unhedged one does', () => {
  hedgesOnDrivenClock();

  it('bad’s content cuts the hedge to good; bad’s answer fails its check: good is asked next', async () => {
    const { gateway, client, events } = await gatewayWith(BAD, 100);
    // The hedge's request to good never answers: only its cut frees it; asked again, good answers.
    gateway.emulator.injectFault({
      fault: 'stall_first_chunk',
      model: GOOD,
      ms: FOREVER,
      times: 1,
    });
    driveClock();
    const opened = client.chatStream(askingPlace(BAD), { fallbackModels: [GOOD], hedge: HEDGE });
    const stream = await settledAfter(300, opened);
    const result = await settledAfter(100, stream.result());
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.servedModel).toBe(GOOD);
    expect(stream.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      [GOOD, 'lost'],
      [BAD, 'failed'],
      [GOOD, 'answered'],
    ]);
    expect(only(events, 'hedge')).toMatchObject([
      { phase: 'sent', from: BAD, model: GOOD },
      { phase: 'won', model: BAD, winner: 'first', lost: GOOD },
    ]);
    expect(only(events, 'failover')).toMatchObject([{ from: BAD, to: GOOD }]);
    expect(gateway.emulator.counters.requests.chat).toBe(3);
  });

  it('the hedge to bad wins and fails its check: the first model it cut is asked again, once', async () => {
    const { gateway, client, events } = await gatewayWith(GOOD, 0);
    gateway.emulator.injectFault({
      fault: 'stall_first_chunk',
      model: GOOD,
      ms: FOREVER,
      times: 1,
    });
    driveClock();
    const opened = client.chatStream(askingPlace(GOOD), { fallbackModels: [BAD], hedge: HEDGE });
    const stream = await settledAfter(300, opened);
    const result = await settledAfter(100, stream.result());
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.servedModel).toBe(GOOD);
    expect(stream.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      [GOOD, 'lost'],
      [BAD, 'failed'],
      [GOOD, 'answered'],
    ]);
    expect(only(events, 'hedge')).toMatchObject([
      { phase: 'sent', from: GOOD, model: BAD },
      { phase: 'won', model: BAD, winner: 'hedge', lost: GOOD },
    ]);
    expect(only(events, 'failover')).toMatchObject([{ from: BAD, to: GOOD }]);
    expect(gateway.emulator.counters.requests.chat).toBe(3);
  });

  it('the hedge to bad wins and fails, and the first model fails again: the call ends, good asked twice only', async () => {
    const { gateway, client } = await gatewayWith(GOOD, 0);
    gateway.emulator.injectFault({
      fault: 'stall_first_chunk',
      model: GOOD,
      ms: FOREVER,
      times: 1,
    });
    gateway.emulator.injectFault({ fault: 'upstream_text', model: GOOD, times: 1 });
    driveClock();
    const failed = client
      .chatStream(askingPlace(GOOD), { fallbackModels: [BAD], hedge: HEDGE })
      .catch((error: unknown) => error);
    const error = (await settledAfter(300, failed)) as { code: string; route: { hops: unknown[] } };
    expect(error.code).toBe('upstream_error');
    expect(error.route.hops).toMatchObject([
      { model: GOOD, outcome: 'lost' },
      { model: BAD, outcome: 'failed', reason: 'invalid_structured_output' },
      { model: GOOD, outcome: 'ended', code: 'upstream_error' },
    ]);
    expect(gateway.emulator.counters.requests.chat).toBe(3);
  });
});
