import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/run';

// The README's shell setup must leave the user's interactive shell as it was: users paste it into
// the shell they keep working in.
const bash = (script: string) =>
  execFileSync('bash', ['-c', script], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, INFERGATE_SKIP_INSTALL: '1' },
  });

describe('shell setup', () => {
  it('source scripts/bootstrap.sh restores the caller’s shell options', () => {
    const options = bash('set +euo pipefail; source scripts/bootstrap.sh 2>/dev/null; set -o');
    expect(options).toMatch(/errexit\s+off/);
    expect(options).toMatch(/nounset\s+off/);
    expect(options).toMatch(/pipefail\s+off/);
  });

  it('eval "$(bash scripts/env.sh)" puts Node ≥ 22 and pnpm on PATH and changes no option', () => {
    const out = bash(
      'set +e; eval "$(bash scripts/env.sh 2>/dev/null)"; node --version; pnpm --version; set -o | grep errexit',
    );
    const [node, pnpm, errexit] = out.trim().split('\n');
    expect(Number(node?.match(/^v(\d+)/)?.[1])).toBeGreaterThanOrEqual(22);
    expect(pnpm).toMatch(/^\d+\.\d+\.\d+$/);
    expect(errexit).toMatch(/off/);
  });
});
