import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { bundleWorker } from './bundle';
import type { Settings } from './worker/handler';

/** A runtime serving the test app over HTTP on loopback. */
export interface LaunchedRuntime {
  url: string;
  /** What the runtime printed (for failure messages). */
  log(): string;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/**
 * The native binary of a runtime shipped in an npm package: `wrapper` is the package a developer
 * installs, `platformPackage` its per-platform dependency that holds the binary. Undefined (with
 * the reason) when this platform has none.
 */
export function npmBinary(
  wrapper: string,
  platformPackage: string,
  file: string,
): { path: string } | { skip: string } {
  try {
    const wrapperDir = dirname(require.resolve(`${wrapper}/package.json`));
    const platformDir = dirname(
      require.resolve(`${platformPackage}/package.json`, { paths: [wrapperDir] }),
    );
    const path = join(platformDir, file);
    if (!existsSync(path)) return { skip: `${platformPackage} has no ${file}` };
    return { path };
  } catch (error) {
    return {
      skip: `npm package ${platformPackage} (the ${wrapper} binary for this platform) is not installed: ${String(error)}`,
    };
  }
}

export const BUN = () => npmBinary('bun', `@oven/bun-${process.platform}-${archName()}`, 'bin/bun');
export const DENO = () =>
  npmBinary('deno', `@deno/${process.platform}-${archName()}-glibc`, 'deno');

function archName(): string {
  return process.arch === 'x64' ? 'x64' : process.arch;
}

/** Cloudflare's workerd through Miniflare (both from npm), without nodejs_compat. */
export async function launchWorkerd(
  settings: Settings,
  options: { compatibilityFlags?: string[] } = {},
): Promise<LaunchedRuntime> {
  const { Miniflare, Log, LogLevel } = await import('miniflare');
  const script = await bundleWorker('workerd-entry.ts', {
    conditions: ['workerd', 'worker', 'browser'],
    format: 'esm',
  });
  let log = '';
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2026-07-01',
    compatibilityFlags: options.compatibilityFlags ?? [],
    bindings: { INFERGATE_BASE_URL: settings.baseURL, INFERGATE_API_KEY: settings.apiKey },
    host: '127.0.0.1',
    port: 0,
    log: new (class extends Log {
      override log(message: string): void {
        log += `${message}\n`;
      }
    })(LogLevel.WARN),
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      stdout.setEncoding('utf8').on('data', (chunk: string) => {
        log += chunk;
      });
      stderr.setEncoding('utf8').on('data', (chunk: string) => {
        log += chunk;
      });
    },
  });
  const url = await mf.ready;
  return { url: url.href, log: () => log, close: () => mf.dispose() };
}

/** Vercel's edge-runtime (npm `edge-runtime`: its VM and server, in this Node process). */
export async function launchEdgeRuntime(settings: Settings): Promise<LaunchedRuntime> {
  const { EdgeRuntime, runServer } = await import('edge-runtime');
  const initialCode = await bundleWorker('edge-entry.ts', {
    conditions: ['edge-light', 'worker', 'browser'],
    format: 'iife',
    settings,
  });
  const runtime = new EdgeRuntime({ initialCode });
  const server = await runServer({ runtime, port: 0, host: '127.0.0.1' });
  return { url: server.url, log: () => '', close: () => server.close() };
}

/**
 * A runtime binary running the bundled app as a child process that prints `PORT=<n>`. The child
 * gets no INFERGATE_* variable: its settings are in the bundle.
 */
async function launchChild(
  binary: string,
  args: (file: string) => string[],
  entry: string,
  conditions: string[],
  settings: Settings,
): Promise<LaunchedRuntime> {
  const dir = await mkdtemp(join(tmpdir(), 'infergate-runtime-'));
  const file = join(dir, 'app.mjs');
  await writeFile(file, await bundleWorker(entry, { conditions, format: 'esm', settings }));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1' };
  const child: ChildProcess = spawn(binary, args(file), { cwd: dir, env });
  let log = '';
  const port = await new Promise<number>((resolve, reject) => {
    // A hang guard with the child's output, not a speed limit: alone a runtime prints its port
    // within 2 s, but beside the whole suite on 2 cores (load ~50) Deno once took over 30 s. It
    // stays under the hook's timeout so that the failure shows the child's output.
    const timer = setTimeout(
      () => reject(new Error(`no PORT= line within 240 s:\n${log}`)),
      240_000,
    );
    const onData = (chunk: string) => {
      log += chunk;
      const match = /PORT=(\d+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${binary} exited with ${code}:\n${log}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    log: () => log,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function launchBun(binary: string, settings: Settings): Promise<LaunchedRuntime> {
  return launchChild(
    binary,
    (file) => ['run', file],
    'bun-entry.ts',
    ['bun', 'worker', 'browser'],
    settings,
  );
}

/** The least Deno needs: the network, only to loopback (listening and reaching the gateway). */
export const DENO_PERMISSIONS = ['--allow-net=127.0.0.1'];

/**
 * The least Deno needs to run the packages from node_modules (not bundled): `ai` itself reads the
 * host name when it is imported (its dependency `@vercel/oidc` builds a user agent with
 * `os.hostname()`), so `--allow-sys=hostname` too.
 */
export const DENO_NODE_MODULES_PERMISSIONS = [...DENO_PERMISSIONS, '--allow-sys=hostname'];

export function launchDeno(binary: string, settings: Settings): Promise<LaunchedRuntime> {
  return launchChild(
    binary,
    (file) => ['run', '--no-prompt', ...DENO_PERMISSIONS, file],
    'deno-entry.ts',
    ['deno', 'worker', 'browser'],
    settings,
  );
}
