import { describe, expect, it } from 'vitest';
import { faulted, hi, only } from './helpers';

// A `retry` event's `reason` (and `status`) is the failure the retry is for (docs/gateway-protocol.md
// §10.5). A call over fallbackModels retries a round of its models after the last one failed: the
// wait is that of the models it asks again, and the last model's failure may be one no round
// retries (a refusal of the model). The event named that last failure, not the one it waits for.
describe('a `retry` event names the failure the retry is for', () => {
  it('a round that retries the busy first model after the second refused: model_busy, not the refusal', async () => {
    // community/general (the call's model) busy once, with Retry-After: 0.
    const { client, events, emulator } = await faulted({
      fault: 'model_busy',
      times: 1,
      retryAfter: 0,
    });
    emulator.injectFault({ fault: 'model_offline', model: 'community/plain', times: 1 });
    const result = await client.chat(hi(), { fallbackModels: ['community/plain'] });
    expect(result.servedModel).toBe('community/general');
    expect(result.route.hops.map((hop) => hop.outcome)).toEqual(['failed', 'failed', 'answered']);
    expect(only(events, 'retry')).toEqual([
      expect.objectContaining({ reason: 'model_busy', status: 429, delayMs: 0 }),
    ]);
  });
});
