/**
 * A call option's bad value is refused with the call options' code, whichever option it is: a
 * per-call `timeoutMs`, `maxRetries` or `onResponse` as the steering options and `signal` beside
 * it (`invalid_request_error`, its field the option's path), nothing sent. The code follows the
 * place, not the group the option is declared in.
 */
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, hi, totalRequests } from './helpers';

describe("a chat call's bad option values share one code", () => {
  it.each([
    [{ timeoutMs: 0 }, 'timeoutMs'],
    [{ maxRetries: -1 }, 'maxRetries'],
    [{ onResponse: 'yes' }, 'onResponse'],
    [{ firstChunkTimeoutMs: 0 }, 'firstChunkTimeoutMs'],
    [{ chunkTimeoutMs: -1 }, 'chunkTimeoutMs'],
    [{ hedge: { afterMs: 0 } }, 'hedge.afterMs'],
    [{ signal: {} }, 'signal'],
  ])('%o is an invalid_request_error naming %s, nothing sent', async (options, field) => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const error = await caught(() => client.chat(hi(), options as never), isGatewayError);
    expect(error).toMatchObject({ code: 'invalid_request_error', field });
    expect(error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')} \\(call option\\)`));
    expect(totalRequests(gateway.emulator)).toBe(0);
  });
});
