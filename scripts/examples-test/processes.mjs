// The processes the examples test starts: commands run to their end (the README test's `exec`), and
// a server (the Next.js app) that runs until the test stops it.
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The environment of every copy: the caller's without INFERGATE_*, npm quiet and cached. */
export function projectEnv() {
  const env = { ...process.env, NO_COLOR: '1', NEXT_TELEMETRY_DISABLED: '1' };
  for (const name of Object.keys(env)) if (name.startsWith('INFERGATE_')) delete env[name];
  return {
    ...env,
    // npm's cache is the pack-and-install test's and the README test's: repeat runs stay offline.
    npm_config_cache: join(
      process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
      'infergate/npm',
    ),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
  };
}

/**
 * Starts a long-running command in its own process group; `output()` is what it printed so far,
 * `stop()` ends it and everything it started (npm → sh → node).
 */
export function startServer(command, args, { cwd, env }) {
  const child = spawn(command, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const read = (chunk) => {
    output += chunk;
  };
  child.stdout.setEncoding('utf8').on('data', read);
  child.stderr.setEncoding('utf8').on('data', read);
  const exited = new Promise((resolve) => child.on('close', resolve));
  let running = true;
  exited.then(() => {
    running = false;
  });
  return {
    output: () => output,
    /** Resolves to the match once the output matches `pattern`; rejects if it exits first. */
    printed(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) resolve(match);
        };
        child.stdout.on('data', check);
        child.stderr.on('data', check);
        check();
        exited.then((code) => reject(new Error(`npm start exited with ${code}`)));
      });
    },
    async stop() {
      if (!running) return;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The last lines of a process's output, indented, for a failure message. */
export const tail = (text, lines = 40) =>
  text
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .map((line) => `    ${line}`)
    .join('\n');
