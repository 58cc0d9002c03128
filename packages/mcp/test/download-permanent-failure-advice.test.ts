/**
 * A download that fails the same way every time — a host name that does not exist, a certificate
 * the download refuses — is not told to try the same URL again in a while: only a connection
 * that failed for now (timed out, reset, refused, DNS not answering) is. Through the MCP SDK's
 * Client against the emulator; the only web server is the loopback HTTPS one below, its
 * certificate self-signed (private URLs allowed, host names resolved by `resolveHost`).
 */
import { createServer, type Server } from 'node:https';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness';
import { closeLoopback, listenOnLoopback } from './loopback-web';

/** A self-signed certificate for localhost (a test's own, trusted by nothing). */
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgXp0i0dzW2y5Zg2al
4iSi5H3ElA6ndmIn9YMAp4SeZXChRANCAATrBxoD8xZwfvYLgAENniDMwy4EbTgw
HesDv33j/eULSxzFzC1PefSMFZFBmivk2A5gggd3snFmm+A3Lv9OiJ42
-----END PRIVATE KEY-----
`;
const CERT = `-----BEGIN CERTIFICATE-----
MIIBgDCCASWgAwIBAgIUU6ouX/xIlCbBlP1VPklM1FjMNzkwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTIwNzAzNDUyM1oYDzIxMjYxMTEz
MDM0NTIzWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATrBxoD8xZwfvYLgAENniDMwy4EbTgwHesDv33j/eULSxzFzC1PefSM
FZFBmivk2A5gggd3snFmm+A3Lv9OiJ42o1MwUTAdBgNVHQ4EFgQUSCR8210rCvyJ
DgPdckW0pwZJtFowHwYDVR0jBBgwFoAUSCR8210rCvyJDgPdckW0pwZJtFowDwYD
VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNJADBGAiEAyvEWuyDvX/bHaN+f3jdh
DWuEF+oRRkVnZ6B0g65FRyECIQCYN2MwpzDXfmIbr+Xqm1GrA1CfmNZ0aJZ3iFWB
OJ7Jsw==
-----END CERTIFICATE-----
`;

/** What the system's resolver throws for a name that does not exist, or a DNS server gone quiet. */
const dnsError = (code: string) => Object.assign(new Error(`getaddrinfo ${code}`), { code });

let harness: Harness;
let client: Client;
let web: Server;
let port: number;

beforeAll(async () => {
  harness = await startHarness({
    server: {
      allowPrivateUrls: true,
      resolveHost: async (host) => {
        if (host === 'self-signed.test') return ['127.0.0.1'];
        throw dnsError(host === 'slow-dns.test' ? 'EAI_AGAIN' : 'ENOTFOUND');
      },
    },
  });
  client = await harness.connect();
  web = createServer({ key: KEY, cert: CERT }, (_req, res) => res.end('x'));
  port = await listenOnLoopback(web);
});
afterAll(async () => {
  closeLoopback(web);
  await harness.close();
});

async function refusalOf(url: string): Promise<{ message: string; what_to_do: string }> {
  const result = await client.callTool({ name: 'ocr', arguments: { image_url: url } });
  expect(result.isError).toBe(true);
  const { error } = result.structuredContent as {
    error: { code: string; message: string; what_to_do: string };
  };
  expect(error.code).toBe('file_refused');
  return error;
}

const FAILS_AGAIN = /the same URL fails the same way again\.$/;

describe('the what_to_do of a download that fails the same way again', () => {
  it('a host name that does not exist (ENOTFOUND)', async () => {
    const error = await refusalOf('https://no-such-host.test/a.png');
    expect(error.message).toContain('(ENOTFOUND)');
    expect(error.what_to_do).not.toContain('again in a while');
    expect(error.what_to_do).toMatch(FAILS_AGAIN);
  });

  it('a certificate the download refuses (self-signed)', async () => {
    const error = await refusalOf(`https://self-signed.test:${port}/a.png`);
    expect(error.message).toMatch(/CERT|SELF_SIGNED/);
    expect(error.what_to_do).not.toContain('again in a while');
    expect(error.what_to_do).toMatch(FAILS_AGAIN);
  });

  it('a DNS server that did not answer (EAI_AGAIN) is still for now', async () => {
    const error = await refusalOf('https://slow-dns.test/a.png');
    expect(error.message).toContain('(EAI_AGAIN)');
    expect(error.what_to_do).toMatch(/^Try the same URL again in a while/);
  });
});
