/**
 * A tool call waiting out a 429's Retry-After before core retries keeps telling so, as a call
 * waiting for a slot does (one rule, `queueProgressMs`): a client resetting its timeout on progress
 * (the MCP SDK's `resetTimeoutOnProgress`) with a timeout shorter than the Retry-After keeps
 * waiting, and gets the answer of the retry. Through the MCP SDK's own Client against the
 * emulator, in-process; the wait is the subject, so the test drives the clock (core's timers, the
 * server's reminder timer and the client's timeout) instead of waiting through it.
 */
import { drivenClock } from '@infergate/emulator/testing';
import { describe, expect, it, vi } from 'vitest';
import { inMemoryServerOfFile, textOf } from './harness';

/** The gateway's Retry-After (s): longer than the client's timeout. */
const RETRY_AFTER_S = 12;
/** The client's timeout, reset by each progress notification. */
const CLIENT_TIMEOUT_MS = 5_000;
const REMINDER_MS = 2_000;

const { gateway, client } = inMemoryServerOfFile({
  server: { queueProgressMs: REMINDER_MS },
  // One retry: the one that waits out the Retry-After.
  maxRetries: 1,
  warm: () =>
    client().callTool({ name: 'translate', arguments: { text: 'warm', target_language: 'de' } }),
});

const clock = drivenClock(vi);

describe('a call waiting out a Retry-After', () => {
  it.each([
    ['client_concurrency_exceeded', 'rate_limit'],
    ['model_busy', 'model_busy'],
  ] as const)(
    'after a 429 %s: progress every queueProgressMs until the retry',
    async (reason, fault) => {
      gateway().emulator.injectFault({
        fault,
        endpoint: 'translations',
        times: 1,
        retryAfter: RETRY_AFTER_S,
      });
      // The driven clock's timers, and the server's reminder interval with them.
      vi.useFakeTimers({
        toFake: [
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'performance',
          'Date',
        ],
      });
      const steps: string[] = [];
      const called = client().callTool(
        { name: 'translate', arguments: { text: 'hi', target_language: 'de' } },
        undefined,
        {
          timeout: CLIENT_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
          onprogress: (step) => steps.push(step.message ?? ''),
        },
      );
      // Past the Retry-After: the client, told every 2 s, has not timed out at 5 s.
      const result = await clock.settledAfter(RETRY_AFTER_S * 1000 + REMINDER_MS, called);
      expect(textOf(result)).toBe('[de] hi');

      const still = `translation: still waiting to retry (${reason})`;
      const reminders = steps.filter((step) => step === still).length;
      // A reminder every 2 s of the 12 s wait (the one at 12 s may come after the retry's timer).
      expect(reminders).toBeGreaterThanOrEqual(RETRY_AFTER_S / (REMINDER_MS / 1000) - 1);
      // (A free slot each time: no wait for one is told.)
      expect(steps).toEqual([
        'translation: sent to the gateway',
        `translation: ${reason}, retrying in ${RETRY_AFTER_S} s`,
        ...Array<string>(reminders).fill(still),
        // The retry ended the reminders: it takes a slot again, is sent and answered.
        'translation: sent to the gateway (attempt 2)',
        'translation: answered',
      ]);
    },
  );
});
