import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createGatewayClient, type GatewayError, isGatewayError } from '@infergate/core';
import { caught, type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import type { TestRedis } from '@infergate/emulator/testing/redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONNECTION_COMMANDS, OPTIONAL_COMMANDS, SCRIPT_COMMANDS } from '../src/redis-access';
import { createRedisBudget, type RedisBudget } from '../src/redis-budget';
import { budgetMaker } from './budgets';
import { type TestCertificates, type TlsRedis, tlsRedis } from './tls-certificates';

// Managed Redis as users have it: TLS only (certificates made here), and an ACL user created from
// the very line the README gives, with nothing more. The budget must work over
// rediss://user:password@…, refuse to start (a typed `configuration_error` naming what is missing)
// when the user lacks anything, and never put the password or the gateway key in an error or a
// log line.

const README = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
/** The README's ACL line, as tokens: `ACL SETUSER infergate on >CHANGE-ME …`. */
const ACL_LINE = (/^ACL SETUSER infergate .*$/m.exec(README)?.[0] ?? '').split(' ');

let certificates: TestCertificates;
let redis: TestRedis;
let admin: TlsRedis['admin'];
let stopRedis: () => Promise<void>;
let gateway: EmulatedGateway;
const open: RedisBudget[] = [];
/** Everything written to the console or a budget's `warn` during the tests. */
const logged: string[] = [];
const secrets: string[] = [];

beforeAll(async () => {
  // The default user (no password), the admin's, is the operator's: it creates the budget's users.
  ({ certificates, redis, admin, stop: stopRedis } = await tlsRedis());
  gateway = await emulate({ as: 'http', scenario: { latencyMs: 20 } });
  secrets.push(gateway.apiKey);
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
    });
  }
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});
afterAll(async () => {
  vi.restoreAllMocks();
  await gateway?.close();
  await stopRedis?.();
  // Whatever the tests did, no line they logged held a password or the gateway key.
  for (const secret of secrets) {
    expect(logged.filter((line) => line.includes(secret))).toEqual([]);
  }
});

/** Creates a user from the README's line (other name and password; `edit` changes the rules). */
async function aclUser(edit: (rules: string[]) => string[] = (rules) => rules) {
  const name = `infergate-${randomUUID().slice(0, 8)}`;
  const password = `pw-${randomUUID()}`;
  secrets.push(password);
  const [acl, setuser, , ...rules] = ACL_LINE;
  const withPassword = rules.map((rule) => (rule === '>CHANGE-ME' ? `>${password}` : rule));
  await admin.sendCommand([acl!, setuser!, name, ...edit(withPassword)]);
  const port = new URL(redis.url).port;
  return { url: `rediss://${name}:${encodeURIComponent(password)}@127.0.0.1:${port}`, password };
}

const budget = budgetMaker(
  () => ({
    commandTimeoutMs: 10_000,
    tls: { ca: certificates.ca },
    warn: (message: string) => logged.push(message),
  }),
  (b) => open.push(b),
);

function client(b: RedisBudget) {
  return createGatewayClient({
    baseURL: gateway.baseURL,
    apiKey: gateway.apiKey,
    budget: b,
    maxRetries: 0,
  });
}

const chat = (c: ReturnType<typeof client>, n: number) =>
  c.chat({ model: 'community/general', messages: [{ role: 'user', content: `n${n}` }] });

/** Every text an error shows: message, stack, JSON, and the same of its causes. */
function everyText(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; depth++) {
    parts.push(String(e), (e as Error).stack ?? '', JSON.stringify(e) ?? '');
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join('\n');
}

/** A configuration error that shows none of the secrets. */
async function refusal(run: Promise<unknown> | (() => unknown)): Promise<GatewayError> {
  const error = await caught(run, isGatewayError);
  expect(error.code).toBe('configuration_error');
  for (const secret of secrets) expect(everyText(error)).not.toContain(secret);
  return error;
}

describe("the README's ACL line", () => {
  it('grants exactly the commands the budget runs', () => {
    const granted = ACL_LINE.filter((t) => t.startsWith('+')).map((t) => t.slice(1).toUpperCase());
    expect(granted.toSorted()).toEqual(
      [...CONNECTION_COMMANDS, ...SCRIPT_COMMANDS, ...OPTIONAL_COMMANDS].toSorted(),
    );
    expect(ACL_LINE).toContain('-@all');
    expect(ACL_LINE).toContain('~{infergate:budget:*}:*');
    expect(ACL_LINE).toContain('&{infergate:budget:*}:*');
  });
});

describe('over rediss:// as the ACL user of the README', () => {
  it('holds the key to 4 in flight across budgets, with no fallback and no 429', async () => {
    const { url } = await aclUser();
    const budgets = [budget({ url }), budget({ url }), budget({ url })];
    await Promise.all(budgets.map((b) => b.ready()));
    gateway.emulator.resetCounters();
    const results = await Promise.all(
      budgets.flatMap((b) => {
        const c = client(b);
        return Array.from({ length: 6 }, (_, i) => chat(c, i).then(() => 'ok'));
      }),
    );
    expect(results).toEqual(Array(18).fill('ok'));
    const { counters } = gateway.emulator;
    expect(counters.concurrencyRejections).toBe(0);
    expect(counters.maxInflight[gateway.apiKey]).toBeLessThanOrEqual(4);
    expect(budgets.map((b) => b.stats.fallbackAcquires)).toEqual([0, 0, 0]);
  });
});

describe("the README's user under an allkeys-* maxmemory policy", () => {
  // (The README's line grants +info: without it the check cannot read the policy, and the users
  // who follow the README would never see the warning.)
  it('gets the one warning naming the policy; without +info it is let in, unwarned', async () => {
    const [policy] = Object.values(await admin.configGet('maxmemory-policy'));
    await admin.configSet('maxmemory-policy', 'allkeys-lru');
    try {
      const warned = (from: number) =>
        logged.slice(from).filter((line) => line.includes("this Redis's maxmemory-policy is"));
      const before = logged.length;
      await budget({ url: (await aclUser()).url }).ready();
      expect(warned(before)).toEqual([expect.stringContaining('allkeys-lru')]);
      const after = logged.length;
      const { url } = await aclUser((rules) => rules.filter((rule) => rule !== '+info'));
      await budget({ url }).ready();
      expect(warned(after)).toEqual([]);
    } finally {
      await admin.configSet('maxmemory-policy', policy ?? 'noeviction');
    }
  });
});

describe('refuses to start when Redis does not let it in', () => {
  const commands = ACL_LINE.filter((t) => t.startsWith('+'))
    .map((t) => t.slice(1))
    .filter((command) => !OPTIONAL_COMMANDS.includes(command.toUpperCase()));

  it.each(commands)('a user without +%s: configuration_error naming it', async (command) => {
    const { url } = await aclUser((rules) => rules.filter((rule) => rule !== `+${command}`));
    const b = budget({ url });
    const error = await refusal(b.ready());
    expect(error.message).toContain(`cannot run ${command.toUpperCase()}`);
    // A call fails the same way before reaching the gateway, though the policy is 'fallback'.
    const sent = gateway.emulator.counters.requests.chat;
    expect(await refusal(chat(client(b), 0))).toBe(error);
    expect(gateway.emulator.counters.requests.chat).toBe(sent);
    expect(b.stats.fallbackAcquires).toBe(0);
  });

  it("a user whose key pattern does not cover the budget's keys", async () => {
    const { url } = await aclUser((rules) =>
      rules.map((rule) => (rule.startsWith('~') ? '~other:*' : rule)),
    );
    const error = await refusal(budget({ url }).ready());
    expect(error.message).toContain("may not use the budget's keys");
  });

  it("a user whose channel pattern does not cover the budget's channels", async () => {
    const { url } = await aclUser((rules) =>
      rules.map((rule) => (rule.startsWith('&') ? '&other:*' : rule)),
    );
    const error = await refusal(budget({ url }).ready());
    expect(error.message).toContain("may not use the budget's channels");
  });

  it('a wrong password', async () => {
    const { url, password } = await aclUser();
    const wrong = url.replace(encodeURIComponent(password), `not-${password}`);
    secrets.push(`not-${password}`);
    const error = await refusal(budget({ url: wrong }).ready());
    expect(error.message).toContain("refused the budget's credentials");
  });

  it('a server certificate no trusted CA signed (no `tls.ca`)', async () => {
    const { url } = await aclUser();
    const b = createRedisBudget({ url, commandTimeoutMs: 10_000, warn: (m) => logged.push(m) });
    open.push(b);
    const error = await refusal(b.ready());
    expect(error.message).toContain('TLS certificate was not accepted');
  });

  // Client-side TLS settings Node cannot use fail before any byte reaches Redis, at every attempt:
  // no outage, so the calls fail with a configuration_error naming the field (never its value,
  // a private key) instead of silently counting per process under the default 'fallback'.
  it.each([
    [
      // (A file path, no PEM text at all, is refused at create: test/tls-pem-text.test.ts.)
      '`tls.cert` and `tls.key` that OpenSSL cannot read (PEM headers, a broken body)',
      () => ({
        cert: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
        key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
      }),
      /`tls.cert` and `tls.key` could not be read \(ERR_OSSL_/,
    ],
    [
      'a `tls.key` of another certificate',
      () => ({
        cert: readFileSync(certificates.certFile, 'utf8'),
        key: readFileSync(join(dirname(certificates.keyFile), 'ca.key'), 'utf8'),
      }),
      /`tls.key` is not the private key of `tls.cert` \(ERR_OSSL_X509_KEY_VALUES_MISMATCH/,
    ],
  ])('%s (the client side), for ready() and a call', async (_, settings, words) => {
    const { url } = await aclUser();
    const tls = { ca: certificates.ca, ...settings() };
    secrets.push(readFileSync(certificates.keyFile, 'utf8').split('\n')[1]!);
    const b = budget({ url, tls });
    const refused = await refusal(b.ready());
    expect(refused.message).toMatch(words);
    const call = await refusal(chat(client(b), 1));
    expect(call.message).toMatch(words);
    expect(b.stats.fallbackAcquires).toBe(0);
  });

  it('a URL it cannot use, without quoting it', async () => {
    const password = `pw-${randomUUID()}`;
    secrets.push(password);
    for (const url of [`https://user:${password}@host`, `rediss://user:${password}@host:port`]) {
      await refusal(() => createRedisBudget({ url }));
    }
  });
});
