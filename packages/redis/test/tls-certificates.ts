import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type ServerTls, startRedis } from '@infergate/emulator/testing/redis';
import { createClient } from 'redis';

/** A throwaway CA and a server certificate it signed for 127.0.0.1 / localhost (files + CA text). */
export interface TestCertificates extends ServerTls {
  /** The CA certificate (PEM): what a client passes as `tls.ca`. */
  ca: string;
  /** Deletes the certificates' directory (once the server that reads them has stopped). */
  remove(): void;
}

function openssl(dir: string, args: string[]): void {
  try {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      missing
        ? 'the TLS tests make their certificates with the `openssl` CLI: bash scripts/ensure-redis.sh installs it'
        : `openssl ${args[0]} failed: ${String((error as { stderr?: unknown }).stderr ?? error)}`,
    );
  }
}

/** Makes the certificates in a fresh temporary directory (P-256 keys, valid for one day). */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'infergate-redis-tls-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-subj',
    '/CN=infergate test CA',
    '-days',
    '1',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
  ]);
  openssl(dir, [
    'req',
    ...ec,
    '-subj',
    '/CN=localhost',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  ]);
  writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(dir, [
    'x509',
    '-req',
    ...['-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial'],
    ...['-out', 'server.crt', '-days', '1', '-extfile', 'san.cnf'],
  ]);
  return {
    certFile: join(dir, 'server.crt'),
    keyFile: join(dir, 'server.key'),
    caFile: join(dir, 'ca.crt'),
    ca: readFileSync(join(dir, 'ca.crt'), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A client certificate and its key (PEM text) for `tls.cert` / `tls.key`: signed by the
 * certificates' CA (one Redis trusts with `tls-auth-clients yes`), or self-signed (one it does not).
 */
export function makeClientCertificate(
  certificates: TestCertificates,
  signer: 'ca' | 'self',
): { cert: string; key: string } {
  const dir = dirname(certificates.keyFile);
  const name = `client-${signer}-${randomUUID().slice(0, 8)}`;
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const subject = ['-subj', '/CN=infergate test client', '-keyout', `${name}.key`];
  if (signer === 'self') {
    openssl(dir, ['req', '-x509', ...ec, ...subject, '-days', '1', '-out', `${name}.crt`]);
  } else {
    openssl(dir, ['req', ...ec, ...subject, '-out', `${name}.csr`]);
    openssl(dir, [
      'x509',
      '-req',
      ...['-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial'],
      ...['-out', `${name}.crt`, '-days', '1'],
    ]);
  }
  return {
    cert: readFileSync(join(dir, `${name}.crt`), 'utf8'),
    key: readFileSync(join(dir, `${name}.key`), 'utf8'),
  };
}

/**
 * A TLS-only redis-server with certificates made for it, and an admin client (its default user,
 * no password) connected over TLS; `stop()` closes the admin, stops the server, then deletes the
 * certificates.
 */
export async function tlsRedis() {
  const certificates = makeCertificates();
  const redis = await startRedis(undefined, certificates);
  const admin = createClient({ url: redis.url, socket: { tls: true, ca: certificates.ca } });
  await admin.connect();
  const stop = async () => {
    await admin.close();
    await redis.stop();
    certificates.remove();
  };
  return { certificates, redis, admin, stop };
}

/** What `tlsRedis()` gives. */
export type TlsRedis = Awaited<ReturnType<typeof tlsRedis>>;
