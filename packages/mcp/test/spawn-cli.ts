import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const packageDir = join(import.meta.dirname, '..');
export const bin = join(packageDir, 'bin', 'infergate-mcp.js');

/** The bin runs the built CLI; build once when the tests run before any build. */
export function ensureBuilt(): void {
  if (!existsSync(join(packageDir, 'dist', 'cli.js'))) {
    execFileSync('pnpm', ['exec', 'tsup'], { cwd: packageDir, stdio: 'ignore' });
  }
}

/**
 * The built command run to its exit, stdin closed at once (a stdio server then stops with status
 * 0), with only PATH and `env` in its environment.
 */
export function runToExit(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const outcome = spawnSync(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    input: '',
    encoding: 'utf8',
  });
  return { status: outcome.status, stderr: outcome.stderr, stdout: outcome.stdout };
}

/** Starts `infergate-mcp --http …` and resolves with its URL once it listens. */
export function spawnHttpCli(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [bin, '--http', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
      const match = /listening on (\S+)/.exec(err);
      if (match) resolve({ url: match[1]!, child, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
}

/** A client transport that spawns the built `infergate-mcp` on stdio, as a desktop client does. */
export function stdioClientTransport(
  root: string,
  gateway: { baseURL: string; apiKey: string },
): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--root', root, '--catalog-refresh', '0'],
    env: {
      PATH: process.env.PATH ?? '',
      INFERGATE_BASE_URL: gateway.baseURL,
      INFERGATE_API_KEY: gateway.apiKey,
    },
    stderr: 'ignore',
  });
}
