import { readFileSync } from 'node:fs';
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { request } from '../test/budgets';
import { createRedisBudget, type RedisBudgetOptions } from './redis-budget';

// Nothing listens here: every case is refused before anything connects.
const url = 'redis://127.0.0.1:9';

/** The configuration_error that `options` get at creation: its field and message. */
async function refusal(
  options: Record<string, unknown>,
): Promise<{ field?: string; message: string }> {
  const error = await caught(
    () => createRedisBudget(options as unknown as RedisBudgetOptions).close(),
    isGatewayError,
  );
  expect(error.code).toBe('configuration_error');
  return { field: error.field, message: error.message };
}

describe('createRedisBudget options', () => {
  it('refuses an unknown key, naming the closest known one', async () => {
    expect(await refusal({ url, leaseTTLms: 5 })).toEqual({
      field: 'leaseTTLms',
      message: 'unknown option `leaseTTLms` in createRedisBudget — did you mean `leaseTtlMs`?',
    });
    expect((await refusal({ url, commandTimeout: 5 })).message).toContain(
      'did you mean `commandTimeoutMs`?',
    );
    // (Its field is the key's path from the options given, as core's option groups name theirs.)
    expect(await refusal({ url, tls: { rejectUnauthorised: false } })).toEqual({
      field: 'tls.rejectUnauthorised',
      message:
        "unknown option `rejectUnauthorised` in createRedisBudget's tls — did you mean `rejectUnauthorized`?",
    });
  });

  it('refuses a value it would not use as asked, naming the option, what was given and the rule', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { leaseTtlMs: -1 },
        'leaseTtlMs (createRedisBudget option) must be an integer of ms from 1000',
      ],
      [{ leaseTtlMs: 10 }, 'got 10'],
      [{ leaseTtlMs: 1500.5 }, 'got 1500.5'],
      [
        { commandTimeoutMs: 'x' },
        'commandTimeoutMs (createRedisBudget option) must be an integer of ms from 1 to 2147483647, got a string',
      ],
      [{ maxPollIntervalMs: 0 }, 'maxPollIntervalMs (createRedisBudget option) must be an integer'],
      [
        { maxPollIntervalMs: 2 ** 31 },
        'maxPollIntervalMs (createRedisBudget option) must be an integer of ms from 1 to 2147483647, got 2147483648',
      ],
      [
        { onRedisFailure: 'fallbak' },
        `onRedisFailure (createRedisBudget option) must be 'fallback' or 'error', got "fallbak"`,
      ],
      [
        { warn: 'x' },
        'warn (createRedisBudget option) must be a function (message: string) => void, got a string',
      ],
      [
        { keyPrefix: '' },
        'keyPrefix (createRedisBudget option) must be a non-empty string, got an empty string',
      ],
      [{ tls: 'yes' }, 'tls (createRedisBudget option) must be an object'],
      [
        { url: undefined },
        'url (createRedisBudget option) must be a URL redis://HOST:PORT (rediss://HOST:PORT for TLS, USER:PASSWORD@ before HOST for an ACL user), got nothing',
      ],
    ];
    for (const [extra, words] of cases) {
      const { field, message } = await refusal({ url, ...extra });
      expect(message).toContain(words);
      expect(field).toBe(Object.keys(extra)[0]);
    }
    expect(await refusal(5 as unknown as Record<string, unknown>)).toEqual({
      field: 'options',
      message: 'options (createRedisBudget option) must be an object ({ url, … }), got 5',
    });
  });

  it('takes every option the README lists, and lists every option it takes', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('## Options'));
    const listed = [
      ...table.slice(0, table.indexOf('\n\n', table.indexOf('|'))).matchAll(/^\| `(\w+)` \|/gm),
    ].map((match) => match[1]);
    expect(listed.sort()).toEqual([
      'commandTimeoutMs',
      'keyPrefix',
      'leaseTtlMs',
      'maxPollIntervalMs',
      'onRedisFailure',
      'tls',
      'url',
      'warn',
    ]);
    for (const key of listed) {
      expect((await refusal({ url, [`${key}x`]: 1 })).message).toContain(
        `did you mean \`${key}\`?`,
      );
    }
  });
});

describe('budget.close() options', () => {
  // Refused before the budget closes anything: a bound the caller meant is never silently
  // dropped (close() would wait for every call in flight), and the budget stays open.
  it('refuses an unknown key, a bare signal and a signal that is none, then still works', async () => {
    const budget = createRedisBudget({ url, onRedisFailure: 'fallback', warn: () => {} });
    const close = budget.close as (options: unknown) => Promise<void>;
    const cases: [unknown, string | undefined, string][] = [
      [
        { timeoutMs: 300 },
        'timeoutMs',
        'unknown option `timeoutMs` in budget.close; known: signal',
      ],
      [
        AbortSignal.timeout(300),
        'options',
        'pass the AbortSignal as `{ signal }`, got the AbortSignal itself',
      ],
      [{ signal: 300 }, 'signal', 'must be an AbortSignal'],
    ];
    for (const [options, field, words] of cases) {
      const error = await caught(close(options), isGatewayError);
      expect(error.code).toBe('configuration_error');
      expect(error.field).toBe(field);
      expect(error.message).toContain(words);
    }
    // Not closed: a call still gets a slot (here the fallback's: nothing listens at `url`).
    const lease = await budget.acquire(request('ig-close-options', 1));
    lease.release();
    await budget.close({ signal: AbortSignal.timeout(5000) });
  });
});
