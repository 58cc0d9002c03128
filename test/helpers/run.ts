import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const examplesDir = (name: string) => `${repoRoot}examples/${name}`;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr, as one text for assertions and failure messages. */
  output: string;
}

/**
 * Environment for a child: the parent's, without any INFERGATE_* variable (so a run that wants
 * the embedded emulator does not inherit a gateway), plus `extra`.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', NEXT_TELEMETRY_DISABLED: '1' };
  for (const name of Object.keys(env)) if (name.startsWith('INFERGATE_')) delete env[name];
  return { ...env, ...extra };
}

/** Runs `node <args>` in `cwd` to the end and collects its output. */
export async function runNode(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<RunResult> {
  const child = spawn(process.execPath, args, { cwd, env: childEnv(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr, output: `${stdout}\n${stderr}` };
}

/** Runs an example's entry point (`node src/index.ts`) against the given gateway. */
export function runExample(
  name: string,
  gateway?: { baseURL: string; apiKey: string },
  args: string[] = [],
): Promise<RunResult> {
  const env: Record<string, string> = gateway
    ? { INFERGATE_BASE_URL: gateway.baseURL, INFERGATE_API_KEY: gateway.apiKey }
    : {};
  return runNode(examplesDir(name), ['--experimental-strip-types', 'src/index.ts', ...args], env);
}

/** Stops a child process this test started, and waits for it. */
export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const closed = once(child, 'close');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await closed;
  clearTimeout(timer);
}
