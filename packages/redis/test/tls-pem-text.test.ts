/**
 * `tls.ca`, `tls.cert` and `tls.key` are PEM text (README): a string without `-----BEGIN` (a file
 * path given instead of the file's text) is refused when the budget is created, each field with
 * the same words, naming the field and suggesting readFileSync(path, 'utf8'), never quoting the
 * value. Before, a `ca` path reached the handshake and got "for a private CA, pass it as
 * `tls.ca`" (which the user did); a cert/key path failed at every connection attempt only.
 * Buffers and arrays (of PEM strings) are taken as Node takes them.
 */
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createRedisBudget } from '../src/index';
import type { RedisTlsOptions } from '../src/redis-connection';

const url = 'rediss://127.0.0.1:9';
const PATH = '/etc/ssl/private/s3cret-name.pem';
const PEM = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';

describe('tls.ca / tls.cert / tls.key given as a file path', () => {
  it.each([
    ['ca', { ca: PATH }],
    ['ca', { ca: [PEM, PATH] }],
    ['cert', { cert: PATH, key: PEM }],
    ['key', { cert: PEM, key: PATH }],
    ['key', { cert: PEM, key: [{ pem: PATH, passphrase: 'p' }] }],
  ] as [string, RedisTlsOptions][])(
    'tls.%s: refused at create, the field named, the value not',
    async (field, tls) => {
      const error = await caught(async () => createRedisBudget({ url, tls }), isGatewayError);
      expect(error.code).toBe('configuration_error');
      expect(error.field).toBe(`tls.${field}`);
      expect(error.message).toBe(
        `tls.${field} (createRedisBudget option) must be the PEM text (-----BEGIN …), not a file path: pass readFileSync(path, 'utf8'), got a string of ${PATH.length} characters without -----BEGIN (not shown)`,
      );
      expect(error.message).not.toContain('s3cret');
    },
  );

  it('PEM strings, arrays of them and Buffers are taken', async () => {
    for (const tls of [
      { ca: PEM },
      { ca: [PEM, Buffer.from(PEM)] },
      { cert: Buffer.from(PATH), key: Buffer.from(PATH) },
    ]) {
      await createRedisBudget({ url, tls }).close();
    }
  });
});
