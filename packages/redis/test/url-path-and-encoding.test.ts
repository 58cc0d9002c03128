/**
 * `redisUrlFault` (createRedisBudget's and infergate-mcp's rule) refuses what the Redis client
 * would refuse later with words of its own, or silently ignore: a path other than a database index
 * (`/abc`, `/0/1`, `/-1`, one past 2^31−1), a user name or password that is no valid
 * %-encoding, a query (`?password=…` is never sent) or fragment. Each refusal names the part, never
 * its text.
 */
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createRedisBudget, redisUrlFault } from '../src/index';

const SECRET = 'S3cretPw';

describe('redisUrlFault checks the path, the %-encoding and the query of a redis:// URL', () => {
  it.each([
    ['redis://127.0.0.1:6379/abc', 'path is not a database index'],
    [`redis://127.0.0.1:6379/${SECRET}`, 'path is not a database index'],
    ['redis://127.0.0.1:6379/0/1', 'path is not a database index'],
    ['redis://127.0.0.1:6379/-1', 'path is not a database index'],
    ['redis://127.0.0.1:6379/1.5', 'path is not a database index'],
    ['redis://127.0.0.1:6379/2147483648', 'path is not a database index'],
    ['redis://127.0.0.1:6379/99999999999', 'path is not a database index'],
    [`redis://ig:${SECRET}%ZZ@127.0.0.1:6379`, 'password is not valid %-encoding'],
    [`redis://${SECRET}%C3@127.0.0.1:6379`, 'user name is not valid %-encoding'],
    [`redis://127.0.0.1:6379/0?password=${SECRET}`, 'query (?…) would be ignored'],
    [`redis://127.0.0.1:6379/0#${SECRET}`, 'fragment (#…) would be ignored'],
  ])('%s: refused at create, naming the part (%s), not its text', async (url, part) => {
    const fault = redisUrlFault(url);
    expect(fault).toContain(part);
    const error = await caught(async () => createRedisBudget({ url }), isGatewayError);
    expect(error.code).toBe('configuration_error');
    expect(error.message).toBe(`url (createRedisBudget option) ${fault}`);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain('abc');
  });

  it.each([
    'redis://127.0.0.1:6379',
    'redis://127.0.0.1:6379/',
    'redis://127.0.0.1:6379/0',
    'redis://127.0.0.1:6379/15',
    'redis://127.0.0.1:6379/2147483647',
    'rediss://ig:p%40ss%2Fw%3Ard@cache.test:6380/2',
  ])('%s: accepted', async (url) => {
    expect(redisUrlFault(url)).toBeUndefined();
    await createRedisBudget({ url }).close();
  });
});
