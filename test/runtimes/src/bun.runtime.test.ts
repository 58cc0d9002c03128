import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERLAPPING } from './emulator';
import { BUN, type LaunchedRuntime, launchBun } from './launch';
import { defineMatrix, httpTarget, SURFACES } from './matrix';

// Bun from npm (`bun`, whose per-platform package ships the binary).
const bun = BUN();
if ('skip' in bun) console.warn(`Bun skipped: ${bun.skip}`);

let gateway: EmulatedGateway;
let runtime: LaunchedRuntime;

describe.skipIf('skip' in bun)('Bun', () => {
  beforeAll(async () => {
    if (!('path' in bun)) return;
    gateway = await emulate({ as: 'http', scenario: OVERLAPPING });
    runtime = await launchBun(bun.path, { baseURL: gateway.baseURL, apiKey: gateway.apiKey });
  });
  afterAll(async () => {
    await runtime?.close();
    await gateway?.close();
  });

  const context = () => ({ target: httpTarget(() => runtime.url), gateway });
  for (const surface of SURFACES) defineMatrix(surface, context, { clientAbort: true });

  it('a client made without settings, with no INFERGATE_* variable, fails its call with configuration_error', async () => {
    const body = (await (await fetch(new URL('/config', runtime.url))).json()) as {
      code: string;
      message: string;
    };
    expect(body.code).toBe('configuration_error');
    expect(body.message).toContain('INFERGATE_BASE_URL');
  });
});
