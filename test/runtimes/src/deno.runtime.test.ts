import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERLAPPING } from './emulator';
import {
  DENO,
  DENO_NODE_MODULES_PERMISSIONS,
  DENO_PERMISSIONS,
  type LaunchedRuntime,
  launchDeno,
} from './launch';
import { defineMatrix, httpTarget, SURFACES } from './matrix';

// Deno from npm (`deno`, whose per-platform package ships the binary), with the least
// permissions: the network to loopback only; no --allow-env, no --allow-read.
const deno = DENO();
if ('skip' in deno) console.warn(`Deno skipped: ${deno.skip}`);

let gateway: EmulatedGateway;
let runtime: LaunchedRuntime;

describe.skipIf('skip' in deno)(`Deno (${DENO_PERMISSIONS.join(' ')})`, () => {
  beforeAll(async () => {
    if (!('path' in deno)) return;
    gateway = await emulate({ as: 'http', scenario: OVERLAPPING });
    runtime = await launchDeno(deno.path, { baseURL: gateway.baseURL, apiKey: gateway.apiKey });
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

  describe('the packages from node_modules (not bundled)', () => {
    const script = fileURLToPath(new URL('./worker/deno-node-modules.ts', import.meta.url));
    const packageDir = fileURLToPath(new URL('..', import.meta.url));
    /** Runs the script with `permissions` from this package's directory (its node_modules). */
    async function run(permissions: string[]): Promise<{ ok: boolean; out: string }> {
      if (!('path' in deno)) throw new Error('no deno');
      const home = await mkdtemp(join(tmpdir(), 'infergate-deno-'));
      try {
        return await new Promise((resolve) => {
          execFile(
            deno.path,
            ['run', '--no-prompt', ...permissions, script, gateway.baseURL, gateway.apiKey],
            {
              cwd: packageDir,
              env: { PATH: process.env.PATH, HOME: home, NO_COLOR: '1' },
              timeout: 60_000,
            },
            (error, stdout, stderr) => resolve({ ok: error === null, out: `${stdout}${stderr}` }),
          );
        });
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    }

    it(`answers on every surface with ${DENO_NODE_MODULES_PERMISSIONS.join(' ')}`, async () => {
      const { ok, out } = await run(DENO_NODE_MODULES_PERMISSIONS);
      expect(ok, out).toBe(true);
      const answers = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, string>;
      for (const surface of ['core', 'aiSdk', 'langchain']) {
        expect(answers[surface], out).toMatch(/\S/);
      }
    });

    it("without --allow-sys=hostname, importing 'ai' is refused (what the README says)", async () => {
      const { ok, out } = await run(DENO_PERMISSIONS);
      expect(ok).toBe(false);
      expect(out).toMatch(/NotCapable: Requires sys access to "hostname"/);
    });
  });
});
