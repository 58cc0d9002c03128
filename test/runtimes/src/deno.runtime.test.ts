import type { RunningEmulator } from '@infergate/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from './emulator';
import { DENO, DENO_PERMISSIONS, type LaunchedRuntime, launchDeno } from './launch';
import { defineMatrix, httpTarget, SURFACES } from './matrix';

// Deno from npm (`deno`, whose per-platform package ships the binary), with the least
// permissions: the network to loopback only; no --allow-env, no --allow-read.
const deno = DENO();
if ('skip' in deno) console.warn(`Deno skipped: ${deno.skip}`);

let gateway: RunningEmulator;
let runtime: LaunchedRuntime;

describe.skipIf('skip' in deno)(`Deno (${DENO_PERMISSIONS.join(' ')})`, () => {
  beforeAll(async () => {
    if (!('path' in deno)) return;
    gateway = await startGateway();
    runtime = await launchDeno(deno.path, { baseURL: gateway.url, apiKey: gateway.apiKey });
  });
  afterAll(async () => {
    await runtime?.close();
    await gateway?.close();
  });

  const context = () => ({ target: httpTarget(() => runtime.url), gateway });
  for (const surface of SURFACES) defineMatrix(surface, context, { clientAbort: true });

  it('without --allow-env, creating a client works and its call fails with configuration_error saying why', async () => {
    const body = (await (await fetch(new URL('/config', runtime.url))).json()) as {
      code: string;
      message: string;
    };
    expect(body.code).toBe('configuration_error');
    expect(body.message).toContain('refused by the runtime (NotCapable)');
    expect(body.message).toContain('--allow-env=INFERGATE_BASE_URL,INFERGATE_API_KEY');
  });
});
