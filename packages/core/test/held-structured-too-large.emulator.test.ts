import { caught, emulate } from '@infergate/emulator/testing';
import { expect, it } from 'vitest';
import type { GatewayError } from '../src/index';
import { clientOn, STRUCTURED_MODELS } from './helpers';

// A structured stream held to its check (docs/gateway-protocol.md §4.8 item 5) that passes
// `maxResponseBytes` while held fails with `response_too_large` in its attempt: none of its text
// reaches the caller. It used to be handed over at the limit, its text unchecked reaching the
// caller before the stream failed (rv-2so F4).

/** Between the catalog's read (about 8 KB) and the answer to `BIG_SCHEMA` (about 27 KB). */
const LIMIT = 12_000;

/** A schema of 100 required strings: its answer is far larger than `LIMIT`. */
const properties = Object.fromEntries(
  Array.from({ length: 100 }, (_, i) => [`a_rather_long_property_name_${i}`, { type: 'string' }]),
);
const BIG_SCHEMA = { type: 'object', properties, required: Object.keys(properties) };

it('a held structured stream past maxResponseBytes fails response_too_large before any of its text reaches the caller', async () => {
  const gateway = await emulate({ scenario: { models: STRUCTURED_MODELS } });
  const client = clientOn(gateway, { maxResponseBytes: LIMIT });
  // so-object is left after so-native: so-native's stream is held to its check.
  const request = {
    model: 'community/so-native',
    messages: [{ role: 'user' as const, content: 'Fill it in' }],
    response_format: {
      type: 'json_schema' as const,
      json_schema: { name: 'big', schema: BIG_SCHEMA },
    },
  };
  // The call itself fails: no stream was handed over, so no delta of it was ever read.
  const error = await caught<GatewayError>(
    client.chatStream(request, { fallbackModels: ['community/so-object'] }),
  );
  expect(error).toMatchObject({ code: 'response_too_large', status: 200, isRetryable: false });
  expect(error.message).toContain(`maxResponseBytes (${LIMIT} bytes)`);
  expect(error.message).toContain('before any of its text reached the caller');
  expect(error.route?.hops).toEqual([
    { model: 'community/so-native', outcome: 'ended', code: 'response_too_large' },
  ]);
  expect(gateway.emulator.counters.requests.chat).toBe(1);
  // The held read was stopped at the limit: its request ended.
  await gateway.untilIdle();
});
