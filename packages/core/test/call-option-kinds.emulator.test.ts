/**
 * A call's `onResponse` that is not a function (dropped unseen before) is refused before anything
 * is sent, naming the option and the value, by the one reader of the call options' descriptor
 * (as `timeoutMs` and `maxRetries`).
 */
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, hi, totalRequests } from './helpers';

const EMBED = { model: 'all-minilm-l6-v2', input: 'x' };

describe('call options checked by their kind', () => {
  it.each([
    ['onResponse', 'yes', 'must be a function, got a string'],
    ['onResponse', 1, 'must be a function, got 1'],
    ['timeoutMs', 0, 'must be a finite number of ms > 0, got 0'],
  ])('%s: %j is refused before any request', async (name, value, what) => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const options = { [name]: value };
    const error = await caught(() => client.embed(EMBED, options), isGatewayError);
    expect(error).toMatchObject({
      code: 'invalid_request_error',
      field: name,
      message: `${name} (call option) ${what}`,
    });
    await caught(() => client.chat(hi(), options), isGatewayError);
    expect(totalRequests(gateway.emulator)).toBe(0);
  });

  it('takes a function', async () => {
    const gateway = await emulate();
    const seen: number[] = [];
    const onResponse = (info: { status: number }) => seen.push(info.status);
    await clientOn(gateway).embed(EMBED, { onResponse, headers: { 'x-trace': '1' } });
    expect(seen).toEqual([200]);
  });
});
