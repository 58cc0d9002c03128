import { ErrorReply } from 'redis';
import { describe, expect, it } from 'vitest';
import {
  ACQUIRE_IF_FREE_SCRIPT,
  ACQUIRE_SCRIPT,
  REFRESH_SCRIPT,
  RELEASE_SCRIPT,
} from './lease-scripts';
import { PROBE_SCRIPT, refusalOf, SCRIPT_COMMANDS } from './redis-access';
import { RedisTimeout } from './redis-connection';

describe('the access check', () => {
  it('probes exactly the commands the lease scripts run', () => {
    const used = new Set<string>();
    for (const script of [ACQUIRE_SCRIPT, ACQUIRE_IF_FREE_SCRIPT, RELEASE_SCRIPT, REFRESH_SCRIPT]) {
      for (const [, command] of script.matchAll(/redis\.call\('([A-Z]+)'/g)) used.add(command!);
    }
    expect([...used].toSorted()).toEqual([...SCRIPT_COMMANDS].toSorted());
    for (const command of SCRIPT_COMMANDS) expect(PROBE_SCRIPT).toContain(`try('${command}'`);
  });
});

describe('refusalOf', () => {
  const code = (cause: unknown, command?: string) => refusalOf(cause, command)?.code;

  it.each([
    [
      'wrong credentials',
      new Error('WRONGPASS invalid username-password pair or user is disabled.'),
    ],
    ['no credentials', new Error('NOAUTH Authentication required.')],
    [
      'a certificate not trusted',
      Object.assign(new Error('self-signed certificate in certificate chain'), {
        code: 'SELF_SIGNED_CERT_IN_CHAIN',
      }),
    ],
    [
      'a command denied',
      new Error("NOPERM this user has no permissions to run the 'eval' command"),
    ],
    ['a command missing', new Error("ERR unknown command 'EVAL', with args beginning with:")],
  ])('%s is a configuration_error', (_, cause) => {
    expect(code(cause, 'EVAL')).toBe('configuration_error');
  });

  it.each([
    ['a timeout', new RedisTimeout(2000)],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }),
    ],
    ['a dropped socket', new Error('Socket closed unexpectedly')],
    ['a busy server', new Error('BUSY Redis is busy running a script.')],
    ['a replica', new Error("READONLY You can't write against a read only replica.")],
    ['a full memory', new Error("OOM command not allowed when used memory > 'maxmemory'.")],
    ['a restart loading its data', new Error('LOADING Redis is loading the dataset in memory')],
  ])('%s is not a refusal (the failure policy decides)', (_, cause) => {
    expect(refusalOf(cause)).toBeUndefined();
  });

  it.each([
    ['MOVED 11339 127.0.0.1:7002'],
    ['ASK 11339 127.0.0.1:7002'],
    ['CLUSTERDOWN Hash slot not served'],
  ])('a cluster node answering "%s" is refused as Redis Cluster, not supported', (reply) => {
    const refused = refusalOf(new ErrorReply(reply), 'EVAL');
    expect(refused?.code).toBe('configuration_error');
    expect(refused?.message).toMatch(/Redis Cluster.*does not support.*single primary/);
  });

  it('names the command Redis named, else the one that was tried', () => {
    expect(
      refusalOf(new Error("NOPERM this user has no permissions to run the 'zadd' command"))
        ?.message,
    ).toContain('cannot run ZADD');
    expect(
      refusalOf(new Error("ERR The user executing the script can't run this command"), 'ZRANK')
        ?.message,
    ).toContain('cannot run ZRANK');
  });
});
