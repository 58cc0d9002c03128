import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { OVERLAPPING } from './emulator';
import { type LaunchedRuntime, launchEdgeRuntime } from './launch';
import { defineMatrix, httpTarget, SURFACES } from './matrix';

// Vercel's edge-runtime from npm (the runtime of `next dev` edge routes and `vercel dev`).
let gateway: EmulatedGateway;
let runtime: LaunchedRuntime;

beforeAll(async () => {
  gateway = await emulate({ as: 'http', scenario: OVERLAPPING });
  runtime = await launchEdgeRuntime({ baseURL: gateway.baseURL, apiKey: gateway.apiKey });
});
afterAll(async () => {
  await runtime?.close();
  await gateway?.close();
});

describe('edge-runtime', () => {
  const context = () => ({ target: httpTarget(() => runtime.url), gateway });
  for (const surface of SURFACES) defineMatrix(surface, context, { clientAbort: true });
});
