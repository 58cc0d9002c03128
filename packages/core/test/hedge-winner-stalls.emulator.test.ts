import type { GatewayEvent } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import {
  askingPlace,
  driveClock,
  hedgesOnDrivenClock,
  settledAfter,
  structuredGateway,
} from './helpers';

// A model a winning hedge took over (docs/gateway-protocol.md §4.8 item 5) is asked with one stall
// limit per attempt, and stalls no more often than in the unhedged walk over the same list: the
// attempt cut at the hedge's first content is no stall (it was cut, not silent for its limit), and
// each later attempt has its own `firstChunkTimeoutMs`, as the unhedged walk's attempts do.
const BAD = 'community/so-claimed';
const SLOW = 'community/so-native';
const STALL_MS = 200;

/** The stalls (`timeout` responses) of each model's attempts among `events`. */
function stallsOf(events: GatewayEvent[]): Record<string, number> {
  const modelOf = new Map<number, string>();
  const stalls: Record<string, number> = {};
  for (const event of events) {
    if (event.type === 'attempt' && event.model !== undefined)
      modelOf.set(event.attempt, event.model);
    if (event.type === 'response' && event.code === 'timeout') {
      const model = modelOf.get(event.attempt)!;
      stalls[model] = (stalls[model] ?? 0) + 1;
    }
  }
  return stalls;
}

/** Over [slow, bad] (slow never answers within the stall limit), hedged or not; its end. */
async function slowThenBad(hedge: boolean) {
  const { gateway, client, events } = await structuredGateway(
    { [SLOW]: { firstChunkMs: 10 * STALL_MS } },
    { retryBaseDelayMs: 20, maxRetries: 1 },
  );
  driveClock();
  const failed = client
    .chatStream(askingPlace(SLOW), {
      fallbackModels: [BAD],
      firstChunkTimeoutMs: STALL_MS,
      hedge: hedge ? { afterMs: 30, maxExtra: 1 } : false,
    })
    .catch((error: unknown) => error);
  const error = (await settledAfter(10 * STALL_MS, failed)) as { code: string };
  await settledAfter(0, gateway.untilIdle());
  return { error, events, chat: gateway.emulator.counters.requests.chat };
}

describe('a slow model a winning hedge took over', () => {
  hedgesOnDrivenClock();

  it('stalls as often as in the unhedged walk (one limit per attempt), the cut attempt no stall', async () => {
    const unhedged = await slowThenBad(false);
    const hedged = await slowThenBad(true);
    expect(unhedged.error.code).toBe('timeout');
    expect(hedged.error.code).toBe('timeout');
    // Unhedged: slow stalls, bad fails its check, the round's retry of slow stalls again.
    expect(stallsOf(unhedged.events)).toEqual({ [SLOW]: 2 });
    expect(stallsOf(hedged.events)).toEqual(stallsOf(unhedged.events));
    // Hedged: slow's first attempt cut at bad's content (one more request, no stall).
    expect(hedged.chat).toBe(unhedged.chat + 1);
  });
});
