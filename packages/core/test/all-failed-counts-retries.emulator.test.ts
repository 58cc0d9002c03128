// A steered call whose model fails in a way that moves to no other model (a 500, the key's own
// 429) retries that model: each retry is a request sent, so the all-failed message counts it with
// the others and tallies its reason (`3 × upstream_error`), as the `attempt` events count it.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/index';
import { isGatewayError } from '../src/index';
import { clientOn, hi, only } from './helpers';

const moved = { model: 'community/general', outcome: 'failed', reason: 'all_providers_failed' };

describe('the all-failed message of a steered call that retried a model', () => {
  it.each([
    { fault: 'upstream_text', code: 'upstream_error', stream: false },
    { fault: 'upstream_text', code: 'upstream_error', stream: true },
    { fault: 'rate_limit', code: 'client_concurrency_exceeded', stream: false },
  ] as const)(
    'counts every request sent: $fault (stream: $stream)',
    async ({ fault, code, stream }) => {
      const gateway = await emulate();
      const { emulator } = gateway;
      emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
      // (The key's 429 says `Retry-After: 0`: its retries are sent at once, as the 500's.)
      const retryAfter = fault === 'rate_limit' ? { retryAfter: 0 } : {};
      emulator.injectFault({ fault, model: 'community/tools', ...retryAfter });
      const events: GatewayEvent[] = [];
      const client = clientOn(gateway, {
        maxRetries: 2,
        circuitBreaker: false,
        onEvent: (event) => {
          if (event.operation === 'chat') events.push(event);
        },
      });
      const options = { fallbackModels: ['community/tools'] };
      const error = await caught(async () => {
        if (!stream) return client.chat(hi(), options);
        for await (const _ of await client.chatStream(hi(), options));
      }, isGatewayError);
      expect(error.code).toBe(code);
      expect(only(events, 'attempt')).toHaveLength(4);
      expect(emulator.counters.requests.chat).toBe(4);
      expect(error.message).toMatch(
        new RegExp(
          `^Every model tried failed \\(4 attempts\\): "community/general": all_providers_failed \\(.*\\); "community/tools": 3 × ${code} \\(`,
        ),
      );
      // The route keeps one hop per model: the retries on `community/tools` end in its `ended` hop.
      expect(error.route?.hops).toEqual([
        moved,
        { model: 'community/tools', outcome: 'ended', code },
      ]);
    },
  );

  it('a call ended while waiting to retry a 500 counts the 500, not its end', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
    emulator.injectFault({ fault: 'upstream_text', model: 'community/tools' });
    const controller = new AbortController();
    // The retry's wait is the backoff, far longer than the test: the caller aborts once it is
    // scheduled (its `retry` event).
    const client = clientOn(gateway, {
      retryBaseDelayMs: 60_000,
      onEvent: (event) => {
        if (event.operation === 'chat' && event.type === 'retry') controller.abort();
      },
    });
    const error = await caught(
      () => client.chat(hi(), { signal: controller.signal, fallbackModels: ['community/tools'] }),
      isGatewayError,
    );
    expect(error.code).toBe('aborted');
    expect(emulator.counters.requests.chat).toBe(2);
    expect(error.message).toMatch(
      /^Every model tried failed \(2 attempts\): "community\/general": all_providers_failed \(.*\); "community\/tools": upstream_error, then aborted while waiting to retry \(The call was aborted\)$/,
    );
    expect(error.route?.hops).toEqual([
      moved,
      { model: 'community/tools', outcome: 'ended', code: 'aborted' },
    ]);
  });
});
