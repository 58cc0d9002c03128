// The deprecation check (deprecated.mjs) of every project of a run in one process: `check(dir)`
// queues DIR and resolves as `exec` does, to `{ code, stdout, stderr }` (code 1 when DIR uses a
// deprecated API, stdout its `file(line): message` lines; code null when the check could not run).
// The process starts with the first check and ends with `close()`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export function deprecationChecker(root, env) {
  let child;
  let stderr = '';
  const waiting = [];
  const start = () => {
    child = spawn(process.execPath, [join(root, 'scripts/readme-test/deprecated.mjs'), '--serve'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const { uses, error } = JSON.parse(line);
      const answer = waiting.shift();
      if (error !== undefined) answer({ code: null, stdout: '', stderr: error });
      else answer({ code: uses.length > 0 ? 1 : 0, stdout: uses.join('\n'), stderr: '' });
    });
    const stopped = (why) => {
      for (const answer of waiting.splice(0))
        answer({ code: null, stdout: '', stderr: `${stderr}\n[deprecation check: ${why}]` });
      child = undefined;
    };
    child.on('error', (error) => stopped(error.message));
    child.on('close', (code, signal) => stopped(`its process ended (${signal ?? code})`));
  };
  return {
    check(dir) {
      if (child === undefined) start();
      return new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${dir}\n`);
      });
    },
    close() {
      child?.stdin.end();
    },
  };
}
