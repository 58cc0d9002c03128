import { createSecureContext } from 'node:tls';
import { GatewayError } from '@infergate/core';
import type { RedisTlsOptions } from './redis-connection';

/**
 * The refusal of `tls` settings that Node cannot make a TLS context of (a `cert` or `key` given as
 * a file path instead of its PEM text, a key of another certificate), or `undefined`. OpenSSL
 * raises these (`ERR_OSSL_…`; an encrypted key without its passphrase too), and Node a value of
 * the wrong type (`ERR_INVALID_ARG_TYPE`/`_VALUE`), before any byte reaches Redis, at every
 * attempt: no outage ends them, so they are a configuration error, not a reason to fall back to
 * counting per process.
 * Asked only once a connection attempt failed, so a working budget never pays for it. The message
 * names the field, never its value (a private key).
 */
export function tlsSettingsRefusal(
  cause: unknown,
  tls: RedisTlsOptions | undefined,
): GatewayError | undefined {
  const code = (cause as { code?: unknown } | null)?.code;
  if (tls === undefined || typeof code !== 'string') return undefined;
  if (code === 'ERR_INVALID_ARG_TYPE' || code === 'ERR_INVALID_ARG_VALUE') {
    return invalidArgumentRefusal(cause as Error, code);
  }
  if (!code.startsWith('ERR_OSSL_')) return undefined;
  const whole = contextError(tls);
  if (whole === undefined) return undefined; // (the settings are fine: the error came from elsewhere)
  // A wrong passphrase is not always BAD_DECRYPT: about one salt in 256 decrypts to valid padding,
  // and OpenSSL then fails to read the garbage as a key (an ASN.1 error).
  if (whole.code === 'ERR_OSSL_BAD_DECRYPT' || undecryptedKey(tls)) {
    return encryptedKeyRefusal(tls, whole.code);
  }
  const fields = (['ca', 'cert', 'key'] as const).filter(
    (field) => tls[field] !== undefined && contextError({ [field]: tls[field] }) !== undefined,
  );
  const which =
    fields.length > 0
      ? `${fields.map((field) => `\`tls.${field}\``).join(' and ')} could not be read`
      : '`tls.key` is not the private key of `tls.cert`';
  return new GatewayError({
    code: 'configuration_error',
    message: `@infergate/redis: the TLS settings cannot be used: ${which} (${whole.code}: ${whole.reason}): pass each as the PEM text (readFileSync(path, 'utf8')), not a file path, and the key that belongs to the certificate. ${AGAIN}`,
    field: fields.length === 1 ? `tls.${fields[0]}` : 'tls',
  });
}

/**
 * Node's refusal of a `tls` value of the wrong type or value (raised before anything is sent, at
 * every attempt: no outage ends it). The field is named when Node's message names it
 * (`"options.ca"`; `"name"` is the servername); its message is not quoted: it shows the value.
 */
function invalidArgumentRefusal(cause: Error, code: string): GatewayError {
  const said = /"options\.(ca|cert|key|passphrase|servername|rejectUnauthorized)"/.exec(
    String(cause.message),
  )?.[1];
  const field =
    said ?? (/^The "name" argument/.test(String(cause.message)) ? 'servername' : undefined);
  const which = field === undefined ? 'a `tls` setting' : `\`tls.${field}\``;
  return new GatewayError({
    code: 'configuration_error',
    message: `@infergate/redis: the TLS settings cannot be used: Node refused ${which} (${code}): give each \`tls\` field the type the README names. ${AGAIN}`,
    field: field === undefined ? 'tls' : `tls.${field}`,
  });
}

const AGAIN =
  'Every call of this budget fails with this error; fix `tls` and create the budget again.';

/** An encrypted `tls.key` that `tls.passphrase` (not given, or another) does not decrypt. */
function encryptedKeyRefusal(tls: RedisTlsOptions, code: string): GatewayError {
  const given = tls.passphrase !== undefined;
  const why = given ? '`tls.passphrase` does not decrypt it' : 'no `tls.passphrase` was given';
  return new GatewayError({
    code: 'configuration_error',
    message: `@infergate/redis: the TLS settings cannot be used: \`tls.key\` is an encrypted private key and ${why} (${code}): pass the key's passphrase as \`tls.passphrase\`, or an unencrypted key. ${AGAIN}`,
    field: given ? 'tls.passphrase' : 'tls.key',
  });
}

/** Whether `tls.key` is an encrypted PEM that its passphrase (given or not) does not open. */
function undecryptedKey({ key, passphrase }: RedisTlsOptions): boolean {
  const text = typeof key === 'string' ? key : Buffer.isBuffer(key) ? key.toString('latin1') : '';
  if (!/ENCRYPTED/.test(text)) return false;
  return contextError({ key, passphrase }) !== undefined;
}

/** OpenSSL's code and words when Node cannot make a TLS context of `tls`. */
function contextError(tls: RedisTlsOptions): { code: string; reason: string } | undefined {
  try {
    createSecureContext(tls);
    return undefined;
  } catch (error) {
    const { code, reason, message } = error as {
      code?: unknown;
      reason?: unknown;
      message?: unknown;
    };
    return {
      code: typeof code === 'string' ? code : 'ERR_OSSL',
      reason: typeof reason === 'string' ? reason : String(message),
    };
  }
}
