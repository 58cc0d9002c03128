/**
 * A `tls` value of the wrong type is refused when the budget is created, naming `tls.<field>`, the
 * type given and what is expected, never the value. Before, only the key names and the PEM-ness
 * of strings were checked: Node refused the value at each connection attempt
 * (ERR_INVALID_ARG_TYPE), the budget took it for an outage and counted per process, and a
 * `servername` of another type left each attempt's socket open. A `rejectUnauthorized: 'no'` was
 * taken silently (certificates still checked). Should Node refuse a `tls` value at a connection
 * attempt anyway, that is a `configuration_error` too, not an outage.
 */
import { Socket } from 'node:net';
import { createSecureContext, TLSSocket } from 'node:tls';
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createRedisBudget } from '../src/index';
import type { RedisTlsOptions } from '../src/redis-connection';
import { tlsSettingsRefusal } from '../src/tls-settings';

const url = 'rediss://127.0.0.1:9';
const PEM = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
const PEM_RULE = 'PEM text (a string), a Buffer or Uint8Array, or an array of these';
const KEY_RULE = `${PEM_RULE} or of { pem, passphrase? }`;

describe('a tls value of the wrong type', () => {
  it.each([
    [
      'servername',
      { ca: PEM, servername: 5 },
      "a non-empty string (the server's host name)",
      'a number',
    ],
    [
      'servername',
      { servername: '' },
      "a non-empty string (the server's host name)",
      'an empty string',
    ],
    ['passphrase', { passphrase: 1234 }, 'a string', 'a number'],
    ['rejectUnauthorized', { rejectUnauthorized: 'no' }, 'true or false (a boolean)', 'a string'],
    ['ca', { ca: 42 }, PEM_RULE, 'a number'],
    ['ca', { ca: [PEM, 5] }, PEM_RULE, 'an array holding a number'],
    ['cert', { cert: { path: '/x' }, key: PEM }, PEM_RULE, 'an object'],
    ['key', { cert: PEM, key: true }, KEY_RULE, 'a boolean'],
    ['key', { cert: PEM, key: [{ pem: 5 }] }, KEY_RULE, 'an array holding an object'],
    ['key', { cert: PEM, key: { pem: PEM } }, KEY_RULE, 'an object'],
  ] as [string, unknown, string, string][])(
    'tls.%s: refused at create, naming the field, the type given and the rule',
    async (field, tls, rule, got) => {
      const error = await caught(
        async () => createRedisBudget({ url, tls: tls as RedisTlsOptions }),
        isGatewayError,
      );
      expect(error.code).toBe('configuration_error');
      expect(error.field).toBe(`tls.${field}`);
      expect(error.message).toBe(
        `tls.${field} (createRedisBudget option) must be ${rule}, got ${got}`,
      );
    },
  );

  it('strings, byte views, arrays of them, keys as { pem, passphrase } and booleans are taken', async () => {
    const bytes = new TextEncoder().encode(PEM);
    for (const tls of [
      { ca: PEM, servername: 'redis.internal', rejectUnauthorized: false },
      { ca: [PEM, Buffer.from(PEM), bytes] },
      { cert: bytes, key: Buffer.from(PEM), passphrase: '' },
      // Node's other forms (rv-2e F1): a key with its own passphrase, any view of bytes.
      { cert: PEM, key: [{ pem: PEM, passphrase: 'p' }, { pem: Buffer.from(PEM) }] },
      { ca: new DataView(bytes.buffer) },
    ]) {
      // (Node takes any TypedArray; its types name Buffer only.)
      await createRedisBudget({ url, tls: tls as RedisTlsOptions }).close();
    }
  });
});

/** Node's own refusal of `run`'s argument (ERR_INVALID_ARG_TYPE), as a connection attempt gets it. */
function nodeRefusal(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('Node took the value');
}

describe("Node's refusal of a tls value at a connection attempt", () => {
  it('is a configuration_error naming the field Node named, not an outage', () => {
    const ca = nodeRefusal(() => createSecureContext({ ca: 42 as never }));
    expect((ca as { code?: string }).code).toBe('ERR_INVALID_ARG_TYPE');
    expect(tlsSettingsRefusal(ca, { ca: PEM })).toMatchObject({
      code: 'configuration_error',
      field: 'tls.ca',
    });
    const socket = new TLSSocket(new Socket());
    const servername = nodeRefusal(() =>
      (socket as unknown as { setServername(name: unknown): void }).setServername(5),
    );
    socket.destroy();
    const refusal = tlsSettingsRefusal(servername, { ca: PEM });
    expect(refusal?.field).toBe('tls.servername');
    expect(refusal?.message).toContain('Node refused `tls.servername` (ERR_INVALID_ARG_TYPE)');
    expect(refusal?.message).not.toContain('Received');
  });

  it('names `tls` when Node names no field', () => {
    const error = Object.assign(new Error('The argument "x" is invalid'), {
      code: 'ERR_INVALID_ARG_VALUE',
    });
    expect(tlsSettingsRefusal(error, { ca: PEM })).toMatchObject({
      code: 'configuration_error',
      field: 'tls',
    });
  });
});
