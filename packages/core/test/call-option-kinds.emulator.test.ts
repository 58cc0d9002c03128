/**
 * Call options of a kind core did not check: `onResponse` that is not a function (dropped unseen
 * before) and `headers` that is not an object (a string's characters went out as headers) are
 * refused before anything is sent, naming the option and the kind given, as `signal` is.
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
    ['headers', 'x-trace: 1', 'must be an object, got a string'],
    ['headers', [['x-trace', '1']], 'must be an object, got an array'],
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

  it('takes a function and an object of headers', async () => {
    const gateway = await emulate();
    const seen: number[] = [];
    const onResponse = (info: { status: number }) => seen.push(info.status);
    await clientOn(gateway).embed(EMBED, { onResponse, headers: { 'x-trace': '1' } });
    expect(seen).toEqual([200]);
  });
});
