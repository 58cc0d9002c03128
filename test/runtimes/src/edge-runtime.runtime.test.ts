import type { RunningEmulator } from '@infergate/emulator';
import { afterAll, beforeAll, describe } from 'vitest';
import { startGateway } from './emulator';
import { type LaunchedRuntime, launchEdgeRuntime } from './launch';
import { defineMatrix, httpTarget, SURFACES } from './matrix';

// Vercel's edge-runtime from npm (the runtime of `next dev` edge routes and `vercel dev`).
let gateway: RunningEmulator;
let runtime: LaunchedRuntime;

beforeAll(async () => {
  gateway = await startGateway();
  runtime = await launchEdgeRuntime({ baseURL: gateway.url, apiKey: gateway.apiKey });
});
afterAll(async () => {
  await runtime?.close();
  await gateway?.close();
});

describe('edge-runtime', () => {
  const context = () => ({ target: httpTarget(() => runtime.url), gateway });
  for (const surface of SURFACES) defineMatrix(surface, context, { clientAbort: true });
});
