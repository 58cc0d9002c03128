// otelEvents checks its options' values where they are given: a wrong tracer would record nothing,
// silently (a handler's throw is swallowed by core), a wrong meter or options throw a bare TypeError.
import { caught, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { otelRecorder } from '../../test/otel-recorder';
import { createGatewayClient } from '../client/client';
import { isGatewayError } from '../errors/errors';
import { otelEvents } from '../otel';

const gateway = await emulate({ hooks: { afterEach, afterAll } });
const recorder = otelRecorder();

/** What `otelEvents(options)` throws: its code, field and message. */
async function refusalOf(options: unknown) {
  const error = await caught(() => otelEvents(options as never), isGatewayError);
  return { code: error.code, field: error.field, message: error.message };
}

describe('otelEvents refuses options it cannot use, naming the field', () => {
  it.each([
    [
      'a number as tracer',
      { tracer: 5 },
      'tracer',
      /tracer \(otelEvents option\) must be a Tracer \(with startSpan\), got a number/,
    ],
    [
      'a tracer provider as tracer',
      { tracer: recorder.provider },
      'tracer',
      /got a tracer provider: give its tracer, `tracerProvider\.getTracer\(/,
    ],
    [
      'an object without instruments as meter',
      { meter: {} },
      'meter',
      /meter \(otelEvents option\) must be a Meter \(with createHistogram, createUpDownCounter, createCounter\), got an object/,
    ],
    [
      'a string as genAiUsage',
      { genAiUsage: 'no' },
      'genAiUsage',
      /genAiUsage \(otelEvents option\) must be a boolean/,
    ],
  ])('%s', async (_, options, field, message) => {
    const refused = await refusalOf(options);
    expect(refused).toMatchObject({ code: 'configuration_error', field });
    expect(refused.message).toMatch(message);
  });

  it.each([
    ['null', null, 'got null'],
    ['a string', 'x', 'got a string'],
    ['an array', [], 'got an array'],
  ])('options that are not an object: %s', async (_, options, got) => {
    const refused = await refusalOf(options);
    expect(refused.code).toBe('configuration_error');
    expect(refused.message).toBe(
      `otelEvents takes an options object or nothing, got ${got.slice(4)}`,
    );
  });

  it('a real tracer and meter pass, and a chat call through them records its spans', async () => {
    recorder.reset();
    const client = createGatewayClient({
      ...gateway.connection,
      onEvent: otelEvents({ tracer: recorder.tracer, meter: recorder.meter, genAiUsage: false }),
    });
    await client.chat({ model: 'community/general', messages: [{ role: 'user', content: 'hi' }] });
    expect(recorder.spans('chat community/general')).toHaveLength(1);
    expect(otelEvents()).toBeTypeOf('function');
  });
});
