import { createPrivateKey } from 'node:crypto';
import { type GatewayError, isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RedisBudget } from '../src/redis-budget';
import { budgetMaker, request } from './budgets';
import { makeClientCertificate, type TlsRedis, tlsRedis } from './tls-certificates';

// Redis that asks every client for a certificate its CA signed (`tls-auth-clients yes`, mutual
// TLS). A client certificate it refuses, or none, never heals: a configuration_error saying so
// (the client certificate, not Redis's), for ready() and a call, never the per-process fallback,
// and no OpenSSL text (it names OpenSSL's source files). Against a real redis-server.
let server: TlsRedis;
const open: RedisBudget[] = [];

beforeAll(async () => {
  server = await tlsRedis();
  // (From now on every new connection needs a client certificate: the admin's is open already.)
  await server.admin.configSet('tls-auth-clients', 'yes');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});
afterAll(() => server?.stop());

const budget = budgetMaker(
  () => ({ url: server.redis.url, commandTimeoutMs: 10_000, warn: () => {} }),
  (b) => open.push(b),
);

/** ready()'s and a call's configuration_error (the same), with no fallback used. */
async function refused(b: RedisBudget): Promise<GatewayError> {
  const error = await caught(b.ready(), isGatewayError);
  expect(error.code).toBe('configuration_error');
  for (const text of [error.message, String(error.cause), JSON.stringify(error)]) {
    expect(text).not.toMatch(/openssl|\.c:\d|\n/);
  }
  expect(await caught(b.acquire(request('ig-mtls')), isGatewayError)).toBe(error);
  expect(b.stats.fallbackAcquires).toBe(0);
  return error;
}

describe('a Redis that asks for a client certificate', () => {
  it('takes the one its CA signed (the control)', async () => {
    const b = budget({
      tls: { ca: server.certificates.ca, ...makeClientCertificate(server.certificates, 'ca') },
    });
    await b.ready();
    (await b.acquire(request('ig-mtls'))).release();
    expect(b.stats.fallbackAcquires).toBe(0);
  });

  it('refuses a self-signed one: configuration_error naming tls.cert and tls.key', async () => {
    const b = budget({
      tls: { ca: server.certificates.ca, ...makeClientCertificate(server.certificates, 'self') },
    });
    const error = await refused(b);
    expect(error.message).toContain('Redis refused the client certificate (ERR_SSL_');
    expect(error.message).toContain('`tls.cert` and `tls.key`');
    expect(error.message).not.toContain("Redis's TLS certificate");
  });

  it.each([
    ['none given', () => ({})],
    [
      'a certificate without its key',
      () => ({ cert: makeClientCertificate(server.certificates, 'ca').cert }),
    ],
  ])('required one: %s', async (_, settings) => {
    const error = await refused(budget({ tls: { ca: server.certificates.ca, ...settings() } }));
    expect(error.message).toContain(
      'Redis requires a client certificate and the budget sent none (ERR_SSL_',
    );
    expect(error.message).not.toContain('pass it as `tls.ca`');
  });

  it('takes an encrypted key with its tls.passphrase; without it, says the key is encrypted', async () => {
    const { cert, key } = makeClientCertificate(server.certificates, 'ca');
    const encrypted = createPrivateKey(key).export({
      format: 'pem',
      type: 'pkcs8',
      cipher: 'aes-256-cbc',
      passphrase: 'right',
    }) as string;
    const withIt = budget({
      tls: { ca: server.certificates.ca, cert, key: encrypted, passphrase: 'right' },
    });
    await withIt.ready();
    for (const [passphrase, field, words] of [
      [undefined, 'tls.key', 'no `tls.passphrase` was given'],
      ['wrong', 'tls.passphrase', '`tls.passphrase` does not decrypt it'],
    ] as const) {
      const tls = {
        ca: server.certificates.ca,
        cert,
        key: encrypted,
        ...(passphrase ? { passphrase } : {}),
      };
      const error = await refused(budget({ tls }));
      expect(error.field).toBe(field);
      expect(error.message).toContain(`\`tls.key\` is an encrypted private key and ${words}`);
      expect(error.message).not.toContain('not a file path');
    }
  });
});
