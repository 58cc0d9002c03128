// docs/gateway-protocol.md §4.8 item 2: `withStructuredOutput(schema, { strict })` is sent as
// `response_format.json_schema.strict`; a value that is not a boolean is refused before sending
// (core's `invalid_request_error` naming the field), not dropped.
import { caught, emulate } from '@infergate/emulator/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel, isGatewayError } from '../index';

const emulated = await emulate();
afterAll(() => emulated.close());
const Place = z.object({ city: z.string() });
const model = new GatewayChatModel('community/json-schema', { ...emulated.connection });

describe('withStructuredOutput strict', () => {
  it.each(['yes', 1])('strict %j is refused before sending', async (strict) => {
    const structured = model.withStructuredOutput(Place, { strict: strict as unknown as boolean });
    const error = await caught(structured.invoke('Where is "Oslo"?'), isGatewayError);
    expect(error.code).toBe('invalid_request_error');
    expect(error.field).toBe('response_format.json_schema.strict');
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
  });

  it('strict true is sent and answered', async () => {
    const value = await model
      .withStructuredOutput(Place, { strict: true })
      .invoke('Where is "Oslo"?');
    expect(value).toEqual({ city: 'Oslo' });
  });
});
