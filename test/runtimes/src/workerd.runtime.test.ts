import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERLAPPING } from './emulator';
import { type LaunchedRuntime, launchWorkerd } from './launch';
import { defineMatrix, httpTarget, SURFACES } from './matrix';

// A Worker built from our packages, in workerd (Miniflare), without nodejs_compat: settings
// come from its env bindings.
let gateway: EmulatedGateway;
let runtime: LaunchedRuntime;

beforeAll(async () => {
  gateway = await emulate({ as: 'http', scenario: OVERLAPPING });
  runtime = await launchWorkerd({ baseURL: gateway.baseURL, apiKey: gateway.apiKey });
});
afterAll(async () => {
  await runtime?.close();
  await gateway?.close();
});

const context = () => ({ target: httpTarget(() => runtime.url), gateway });

describe('workerd', () => {
  for (const surface of SURFACES) defineMatrix(surface, context, { clientAbort: true });

  it('without process (no nodejs_compat), a client made without settings says to pass env', async () => {
    const body = (await (await fetch(new URL('/config', runtime.url))).json()) as {
      code: string;
      message: string;
    };
    expect(body.code).toBe('configuration_error');
    expect(body.message).toContain('no process.env');
  });

  it('workerd printed no cross-request warning, hung request or uncaught error', () => {
    // ("Disallowed operation called within global scope": a finalizer of a stream dropped unread
    // cleared its request's timer, once per abandoned stream.)
    expect(runtime.log()).not.toMatch(
      /different request|never generate a response|hung|Disallowed operation|Uncaught/i,
    );
  });
});
