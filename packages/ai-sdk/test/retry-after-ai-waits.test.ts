// A 429's Retry-After is retryable only when `ai` will wait it: ai@6 and ai@7 honour a
// Retry-After under 60 s and replace a longer one with their own 2 s backoff, so a 429 asking for
// 60 s or more must fail at once (one request sent), not be retried 2 s later. Whatever
// `maxRetryAfterMs` says: raising it cannot make `ai` wait longer.
import { APICallError } from '@ai-sdk/provider';
import { APICallError as APICallErrorV3 } from '@ai-sdk/provider-v3';
import type { EndpointName } from '@infergate/emulator';
import { embedMany, generateText } from 'ai';
import { embedMany as embedManyV6, generateText as generateTextV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import type { GatewayProviderSettings } from '../src';
import { providersOnMsw } from './providers';

const { emulator, gateway, gatewayV3 } = await providersOnMsw({});

type Call = (settings: GatewayProviderSettings, maxRetries?: number) => Promise<unknown>;

/** ai@7's and ai@6's functions, each with its provider. */
const MAJORS = [
  { major: '', generateText, embedMany, provider: gateway },
  {
    major: ' (ai@6)',
    generateText: generateTextV6 as unknown as typeof generateText,
    embedMany: embedManyV6 as unknown as typeof embedMany,
    provider: gatewayV3 as unknown as typeof gateway,
  },
];

/** A chat call and an embeddings call of each major. */
const CALLS: [string, EndpointName, Call][] = MAJORS.flatMap(
  ({ major, generateText, embedMany, provider }): [string, EndpointName, Call][] => [
    [
      `generateText${major}`,
      'chat',
      (settings, maxRetries) =>
        generateText({ model: provider(settings)('community/general'), prompt: 'hi', maxRetries }),
    ],
    [
      `embedMany${major}`,
      'embeddings',
      (settings, maxRetries) =>
        embedMany({
          model: provider(settings).embeddingModel('all-minilm-l6-v2'),
          values: ['a'],
          maxRetries,
        }),
    ],
  ],
);

/** The call's error after one 429 with `Retry-After: retryAfter` on `endpoint`. */
async function failureAfter429(
  call: Call,
  endpoint: EndpointName,
  retryAfter: number,
  settings: GatewayProviderSettings,
  maxRetries?: number,
): Promise<unknown> {
  emulator.injectFault({ fault: 'rate_limit', endpoint, times: 1, retryAfter });
  return call(settings, maxRetries).then(
    () => 'answered',
    (error: unknown) => error,
  );
}

function expectNotRetryable(error: unknown) {
  expect(APICallError.isInstance(error) || APICallErrorV3.isInstance(error)).toBe(true);
  expect((error as APICallError).statusCode).toBe(429);
  expect((error as APICallError).isRetryable).toBe(false);
}

describe('a Retry-After of 60 s or more, which ai would not wait, is not retried', () => {
  it.each(CALLS)(
    '%s: Retry-After 60 fails at once, one request sent',
    async (_, endpoint, call) => {
      // ai's default maxRetries (2): a retryable error would be retried after 2 s and answered.
      const error = await failureAfter429(call, endpoint, 60, {});
      expectNotRetryable(error);
      expect(emulator.counters.requests[endpoint]).toBe(1);
    },
  );

  it.each(CALLS)(
    '%s: maxRetryAfterMs above 60 s does not make Retry-After 90 retryable',
    async (_, endpoint, call) => {
      const error = await failureAfter429(call, endpoint, 90, { maxRetryAfterMs: 120_000 });
      expectNotRetryable(error);
      expect(emulator.counters.requests[endpoint]).toBe(1);
    },
  );

  it.each(CALLS)(
    '%s: Retry-After 59, which ai waits, stays retryable',
    async (_, endpoint, call) => {
      // maxRetries 0: ai throws the error as it came, without waiting, to read its isRetryable.
      const error = await failureAfter429(call, endpoint, 59, {}, 0);
      expect((error as APICallError).statusCode).toBe(429);
      expect((error as APICallError).isRetryable).toBe(true);
      expect(emulator.counters.requests[endpoint]).toBe(1);
    },
  );
});
