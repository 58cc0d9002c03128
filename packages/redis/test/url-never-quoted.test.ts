/**
 * A value given as `url` that is no redis:// or rediss:// URL is refused before anything connects,
 * and nothing of it is shown: not even what parses as its scheme, since a password pasted where
 * the URL goes (`hunter2:xyz`, `s3cr3t:pw@host`) parses as a URL whose "scheme" is the secret.
 * The refusal names the form and the value's length; no piece of the value is in its message,
 * stack, JSON or inspection. A well-formed URL's password is in none of the budget's either.
 */
import { inspect } from 'node:util';
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createRedisBudget, redisUrlFault } from '../src/index';

const FORM =
  'must be a URL redis://HOST:PORT (rediss://HOST:PORT for TLS, USER:PASSWORD@ before HOST for an ACL user)';

/** Every piece of `value` 4 characters long or more (the whole of a shorter one). */
function pieces(value: string): string[] {
  if (value.length < 4) return [value];
  return Array.from({ length: value.length - 3 }, (_, i) => value.slice(i, i + 4));
}

/**
 * Everything an error shows of itself (message, stack, JSON, inspection), less the form's words
 * and the stack's frames (code locations: `packages/redis/…`).
 */
function shown(error: unknown): string {
  const { message, stack } = error as Error;
  const all = [message, stack, JSON.stringify(error), inspect(error, { depth: 8 })].join('\n');
  return all.replaceAll(FORM, '').replace(/^\s+at .*$/gm, '');
}

describe('createRedisBudget refuses a url that is no redis:// URL without quoting it', () => {
  // Each value, and the part of it that is secret (a scheme of ours is no secret).
  it.each([
    ['hunter2:xyz', 'hunter2:xyz'],
    ['s3cr3t:pw@host', 's3cr3t:pw@host'],
    ['s3cr3t', 's3cr3t'],
    ['redis:hunter2pw@cache', 'hunter2pw@cache'], // no `//`: its password could not be masked
    ['REDIZ://:hunter2pw@cache:6379', 'REDIZ://:hunter2pw@cache:6379'],
    ['http://:hunter2pw@cache:6379', ':hunter2pw@cache:6379'],
  ])('%s: named by its length, no piece of it shown', async (url, secret) => {
    const error = await caught(async () => createRedisBudget({ url }));
    expect(isGatewayError(error) && error.code).toBe('configuration_error');
    expect((error as Error).message).toBe(
      `url (createRedisBudget option) ${FORM}, got a value of ${url.length} characters (not shown: it may hold a password)`,
    );
    const all = shown(error);
    for (const piece of pieces(secret)) expect(all).not.toContain(piece);
  });

  it('names a url of another kind by its kind only (a number may be a password typed as one)', async () => {
    const error = await caught(async () =>
      createRedisBudget({ url: 73_195_024 as unknown as string }),
    );
    expect((error as Error).message).toBe(`url (createRedisBudget option) ${FORM}, got a number`);
    expect(shown(error)).not.toContain('73195024');
  });

  it('takes redis:// and rediss:// URLs, and keeps their password out of the budget it makes', async () => {
    for (const url of ['redis://127.0.0.1:6379', 'REDISS://me:hunter2pw@cache.test:6380']) {
      expect(redisUrlFault(url)).toBeUndefined();
    }
    const budget = createRedisBudget({ url: 'redis://me:hunter2pw@127.0.0.1:1' });
    try {
      expect(`${inspect(budget, { depth: 8 })}${JSON.stringify(budget)}`).not.toContain(
        'hunter2pw',
      );
    } finally {
      await budget.close();
    }
  });
});
