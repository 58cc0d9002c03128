// A call's bad `maxRetries` is refused as core refuses a call option's bad value
// (`invalid_request_error`, before anything is sent), as a call's bad steering option is; the same
// value as the model's field is a `configuration_error` when the model is used: the code follows
// where the value was given.
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { emulator, connection } = emulated;
const sent = () => Object.values(emulator.counters.requests).reduce((sum, n) => sum + n, 0);

describe("a bad maxRetries's code follows where it was given", () => {
  it.each([
    [{ maxRetries: -1 }, 'maxRetries'],
    [{ firstChunkTimeoutMs: 0 }, 'firstChunkTimeoutMs'],
  ])('invoke(input, %o) is an invalid_request_error naming %s', async (options, field) => {
    const model = new GatewayChatModel({ model: 'community/general', ...connection });
    const error = await caught(() => model.invoke('hi', options), isGatewayError);
    expect(error).toMatchObject({ code: 'invalid_request_error', field });
    expect(error.message).toContain(`${field} (call option)`);
    expect(sent()).toBe(0);
  });

  it("the model's maxRetries field is a configuration_error", async () => {
    const error = await caught(async () => {
      const model = new GatewayChatModel({
        model: 'community/general',
        ...connection,
        maxRetries: -1,
      });
      await model.invoke('hi');
    }, isGatewayError);
    expect(error).toMatchObject({ code: 'configuration_error', field: 'maxRetries' });
    expect(sent()).toBe(0);
  });
});
