// docs/gateway-protocol.md §4.7 rule 3: when every model of a round failed, no model is asked again
// before its own Retry-After has passed (the spec's "seconds to wait before retrying"); the round
// waits for the first model free, and one still cooling waits for a later round. The driven clock
// gives each request's time.
import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayError } from '../src/index';
import { driveClock, hi, only, recordingClient, settledAfter } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

const GENERAL = 'community/general';
const TOOLS = 'community/tools';

/** A client on a gateway where both models are busy, `general` asking `generalRetryAfter` s. */
async function bothBusy(generalRetryAfter: number, maxRetries: number, toolsBusyTimes?: number) {
  const gateway = await emulate();
  const { emulator } = gateway;
  const { client, events } = recordingClient(gateway, { maxRetries, circuitBreaker: false });
  // A first steered call, at once, loads the steering's lazy chunks (an import the driven clock
  // cannot wait for) and the catalog.
  await client.chat(hi(GENERAL), { fallbackModels: [TOOLS] });
  events.length = 0;
  emulator.injectFault({ fault: 'model_busy', model: GENERAL, retryAfter: generalRetryAfter });
  const times = toolsBusyTimes === undefined ? {} : { times: toolsBusyTimes };
  emulator.injectFault({ fault: 'model_busy', model: TOOLS, retryAfter: 1, ...times });
  driveClock();
  const start = Date.now();
  /** Each request of the call: when it was sent (ms after the call began), and to which model. */
  const asked = () =>
    only(events, 'attempt').map((event) => `${event.time - start} ${event.model}`);
  return { gateway, client, events, asked };
}

/** The call's failure, its driven clock run until it settles. */
const failureOf = (call: Promise<unknown>) =>
  settledAfter(
    10_000,
    call.catch((failure: GatewayError) => failure),
  );

/**
 * What `bothBusy(2, …)` asks in its first two seconds: general (2 s) waits while tools (1 s) is
 * asked again; both free again at 2 s, the round asks them in the list's order.
 */
const TWO_SECONDS_OF_BOTH_BUSY = [
  `0 ${GENERAL}`,
  `0 ${TOOLS}`,
  `1000 ${TOOLS}`,
  `2000 ${GENERAL}`,
  `2000 ${TOOLS}`,
];

describe('a round after every model failed (fallbackModels)', () => {
  it('asks a model again only once its own Retry-After has passed; the others go first', async () => {
    const { gateway, client, asked } = await bothBusy(4, 2, 2);
    const result = await settledAfter(
      10_000,
      client.chat(hi(GENERAL), { fallbackModels: [TOOLS] }),
    );
    // general said 4 s: it waits, while tools (1 s) is asked again each second, and answers.
    expect(asked()).toEqual([`0 ${GENERAL}`, `0 ${TOOLS}`, `1000 ${TOOLS}`, `2000 ${TOOLS}`]);
    expect(result.servedModel).toBe(TOOLS);
    await gateway.close();
  });

  it('takes a cooling model back in the list order once its time has come; rounds count retries', async () => {
    const { gateway, client, events, asked } = await bothBusy(2, 3);
    const call = client.chat(hi(GENERAL), { fallbackModels: [TOOLS] });
    const error = await failureOf(call);
    expect(asked()).toEqual([...TWO_SECONDS_OF_BOTH_BUSY, `3000 ${TOOLS}`]);
    expect(only(events, 'retry').map((retry) => retry.delayMs)).toEqual([1000, 1000, 1000]);
    expect(error).toMatchObject({ code: 'model_busy', status: 429 });
    await gateway.close();
  });

  it("does not wait for a Retry-After that does not fit the call's deadline", async () => {
    const { gateway, client, asked } = await bothBusy(2, 5);
    const call = client.chat(hi(GENERAL), { fallbackModels: [TOOLS], timeoutMs: 2_500 });
    const error = await failureOf(call);
    // At 2 s, 0.5 s is left: neither model's next Retry-After fits, the call ends with its failure.
    expect(asked()).toEqual(TWO_SECONDS_OF_BOTH_BUSY);
    expect(error).toMatchObject({ code: 'model_busy', status: 429 });
    await gateway.close();
  });

  // 10 ms apart: the round waits the few ms more for all three (ROUND_SLACK_MS). 200 ms apart: it
  // starts when the first is free, and takes each of the others in as its Retry-After passes.
  it.each([
    [10, [0, 10, 20, 1030, 1040, 1050]],
    [200, [0, 200, 400, 1200, 1400, 1600]],
  ])(
    'walks every model free by the time it gets there, their 429s %i ms apart (rv-steer F2)',
    async (latency, times) => {
      const gateway = await emulate();
      const { connection, emulator } = gateway;
      // Each request takes `latency` ms of the driven clock to reach the gateway: the three models'
      // 429s come that far apart, so with one `Retry-After` each is free that long after the one before.
      const slowFetch: typeof fetch = async (input, init) => {
        await new Promise((resolve) => setTimeout(resolve, latency));
        return connection.fetch(input, init);
      };
      const { client, events } = recordingClient(
        { connection: { ...connection, fetch: slowFetch } },
        { maxRetries: 1, circuitBreaker: false },
      );
      const models = [GENERAL, 'community/streamer', TOOLS];
      const list = { fallbackModels: models.slice(1) };
      await client.chat(hi(GENERAL), list);
      events.length = 0;
      emulator.injectFault({ fault: 'model_busy', retryAfter: 1 });
      driveClock();
      const start = Date.now();
      const error = await failureOf(client.chat(hi(GENERAL), list));
      const asked = only(events, 'attempt').map((event) => `${event.time - start} ${event.model}`);
      // One round, one retry: every model asked again, each move within a round a failover.
      expect(asked).toEqual(times.map((time, i) => `${time} ${models[i % 3]}`));
      const moves = events.filter((event) => event.type === 'failover' || event.type === 'retry');
      expect(moves.map((event) => event.type)).toEqual([
        'failover',
        'failover',
        'retry',
        'failover',
        'failover',
      ]);
      expect(error).toMatchObject({ code: 'model_busy', status: 429 });
      await gateway.close();
    },
  );
});
