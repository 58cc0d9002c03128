// A wrong `tls.passphrase` is named as the passphrase whatever OpenSSL's code: about one salt in
// 256 decrypts to valid padding, and OpenSSL then fails to read the garbage as a key
// (ERR_OSSL_UNSUPPORTED, an ASN.1 error) instead of ERR_OSSL_BAD_DECRYPT. The client-certificates
// test failed now and then on it, naming `tls.key`.
import { generateKeyPairSync } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { expect, it } from 'vitest';
import { tlsSettingsRefusal } from '../src/tls-settings';

/** An encrypted key whose wrong passphrase OpenSSL refuses with another code than BAD_DECRYPT. */
function keyMisreadWithWrongPassphrase(): { key: string; code: string } {
  for (;;) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const key = privateKey.export({
      format: 'pem',
      type: 'pkcs8',
      cipher: 'aes-256-cbc',
      passphrase: 'right',
    }) as string;
    try {
      createSecureContext({ key, passphrase: 'wrong' });
    } catch (error) {
      const { code } = error as { code: string };
      if (code !== 'ERR_OSSL_BAD_DECRYPT') return { key, code };
    }
  }
}

it('a wrong passphrase OpenSSL misreads as a bad key still names tls.passphrase', () => {
  const { key, code } = keyMisreadWithWrongPassphrase();
  const refusal = tlsSettingsRefusal({ code }, { key, passphrase: 'wrong' });
  expect(refusal?.field).toBe('tls.passphrase');
  expect(refusal?.message).toContain('`tls.passphrase` does not decrypt it');
});
