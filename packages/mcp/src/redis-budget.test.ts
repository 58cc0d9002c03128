import { GatewayError, isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { loadRedisBudget } from './redis-budget';

/** What Node's ESM loader throws for a package that is not installed. */
function notFound(specifier: string): Error {
  return Object.assign(
    new Error(`Cannot find package '${specifier}' imported from /app/node_modules/x/cli.js`),
    { code: 'ERR_MODULE_NOT_FOUND' },
  );
}

describe('loadRedisBudget (--redis)', () => {
  it('without @infergate/redis installed: configuration_error naming the install line, the URL without its password', async () => {
    const error = await loadRedisBudget(
      'redis://:hunter2@cache:6379',
      () => {},
      () => Promise.reject(notFound('@infergate/redis')),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'configuration_error', field: 'redisUrl' });
    const { message } = error as GatewayError;
    expect(message).toContain('needs the @infergate/redis package, which is not installed');
    expect(message).toContain('npm install @infergate/redis');
    expect(message).toContain(
      'npx -p @infergate/mcp -p @infergate/redis infergate-mcp --redis URL',
    );
    expect(message).toContain('redis://***@cache:6379');
    expect(message).not.toContain('hunter2');
  });

  it('a package that @infergate/redis itself cannot find is not taken for a missing @infergate/redis', async () => {
    const missingDependency = notFound('redis');
    const error = await loadRedisBudget(
      'redis://cache:6379',
      () => {},
      () => Promise.reject(missingDependency),
    ).catch((e: unknown) => e);
    expect(error).toBe(missingDependency);
  });

  it('a URL missing the `:` after its scheme is named by its length alone', async () => {
    const error = await caught(
      () => loadRedisBudget('redis//:hunter2pw@cache:6379', () => {}),
      isGatewayError,
    );
    expect(error).toMatchObject({ code: 'configuration_error', field: 'redisUrl' });
    expect(error.message).toContain(
      'The Redis URL [a value of 28 characters, not shown: it may hold a password]',
    );
    expect(error.message).not.toContain('hunter2pw');
  });

  it('with @infergate/redis installed: its budget', async () => {
    const lines: string[] = [];
    const budget = await loadRedisBudget('redis://:hunter2@127.0.0.1:1', (line) =>
      lines.push(line),
    );
    expect(typeof budget.acquire).toBe('function');
    await budget.close();
  });
});
