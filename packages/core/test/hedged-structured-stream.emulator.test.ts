import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  askingPlace,
  driveClock,
  only,
  recordingClient,
  STRUCTURED_MODELS,
  settledAfter,
} from './helpers';

// A hedged structured stream is not held to its end, though its list could still move on
// (docs/gateway-protocol.md §4.8 item 5): a hedged call's runs race to their first content, which
// ends the hedge's wait and the other run. Held to its end, a stream whose content had come sent a
// hedge all the same, and a winning hedge left the other run reading on, its slot taken (rv-2so).
describe('a hedged chatStream asking for a schema over fallbackModels', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends no hedge once the first model’s content has come', async () => {
    const gateway = await emulate({ scenario: { models: STRUCTURED_MODELS } });
    // Content at once, then nothing for far longer than the hedge's wait.
    gateway.emulator.injectFault({
      fault: 'stall_stream',
      model: 'community/so-native',
      afterChunks: 3,
      ms: 60_000,
    });
    const { client, events } = recordingClient(gateway);
    // On the real clock first: the steering module loaded, the catalog read.
    await client.chat(askingPlace('community/so-object'), {
      fallbackModels: ['community/so-native'],
    });
    gateway.emulator.resetCounters();
    events.length = 0;
    driveClock();
    const opened = client.chatStream(askingPlace('community/so-native'), {
      fallbackModels: ['community/so-object'],
      hedge: { afterMs: 30, maxExtra: 1 },
    });
    // Past the hedge's wait: the stream is the caller's, its content let through, no hedge sent.
    const stream = await settledAfter(100, opened);
    expect(only(events, 'hedge')).toEqual([]);
    expect(gateway.emulator.counters.requests.chat).toBe(1);
    await stream.cancel();
  });
});
