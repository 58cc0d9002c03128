import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { here } from './bundle';

/**
 * The Node version every package states (`engines.node`, the root README) holds for its CommonJS
 * builds: a build that `require()`s an ESM-only package (`@ai-sdk/provider` 4, `msw` 3) runs only
 * from Node 22.12, where `require(esm)` is on by default. Node 22.0–22.11 behave as
 * `--no-experimental-require-module` does on this Node.
 */
const REQUIRE_ESM_FROM = [22, 12] as const;
const packagesDir = here('../../../packages');

interface Package {
  name: string;
  dir: string;
  node: string;
  cjsEntries: string[];
}

function requireTargets(exports: unknown, underRequire = false): string[] {
  if (typeof exports === 'string') return underRequire && exports.endsWith('.cjs') ? [exports] : [];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.entries(exports).flatMap(([key, value]) =>
    requireTargets(value, underRequire || key === 'require'),
  );
}

const published: Package[] = readdirSync(packagesDir).flatMap((folder) => {
  const dir = join(packagesDir, folder);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (manifest.private) return [];
  const cjsEntries = [...new Set(requireTargets(manifest.exports))];
  return [{ name: manifest.name, dir, node: manifest.engines?.node ?? '', cjsEntries }];
});

/** Whether `>=X.Y…` admits no Node below 22.12. */
function excludesEarlierThanRequireEsm(range: string): boolean {
  const [major = 0, minor = 0] = (/^>=(\d+)(?:\.(\d+))?/.exec(range) ?? []).slice(1).map(Number);
  return (
    major > REQUIRE_ESM_FROM[0] || (major === REQUIRE_ESM_FROM[0] && minor >= REQUIRE_ESM_FROM[1])
  );
}

/** Loads a CommonJS entry as Node 22.0–22.11 would: undefined when it loads, else the error code. */
function requireWithoutRequireEsm(file: string): string | undefined {
  const run = spawnSync(
    process.execPath,
    ['--no-experimental-require-module', '-e', `require(${JSON.stringify(file)})`],
    { encoding: 'utf8' },
  );
  if (run.status === 0) return undefined;
  return /\[(ERR_\w+)\]/.exec(run.stderr)?.[1] ?? run.stderr;
}

describe('the Node version the packages state', () => {
  it('is at least 22.12 for every package whose CommonJS build requires an ESM-only package', () => {
    const needsRequireEsm: string[] = [];
    for (const pkg of published) {
      for (const entry of pkg.cjsEntries) {
        const failure = requireWithoutRequireEsm(join(pkg.dir, entry));
        if (failure === undefined) continue;
        // Any other failure is a broken build, not a Node version.
        expect(failure, `${pkg.name} ${entry}`).toBe('ERR_REQUIRE_ESM');
        needsRequireEsm.push(pkg.name);
      }
    }
    // The check finds them (the AI SDK provider and the emulator's msw helper today).
    expect(needsRequireEsm).toContain('@infergate/ai-sdk');
    for (const name of new Set(needsRequireEsm)) {
      const pkg = published.find((p) => p.name === name)!;
      expect(excludesEarlierThanRequireEsm(pkg.node), `${name} engines.node ${pkg.node}`).toBe(
        true,
      );
    }
  });

  it('is one version for all packages, the one the root README states', () => {
    const ranges = new Set(published.map((pkg) => pkg.node));
    expect([...ranges]).toHaveLength(1);
    const [range] = ranges;
    const version = /^>=(\d+(?:\.\d+)*)$/.exec(range!)?.[1];
    const readme = readFileSync(here('../../../README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(
      `ships ESM and CommonJS builds with their own type declarations and needs Node ≥ ${version} `,
    );
  });
});

describe('pnpm release', () => {
  // Turbo restores a cached build by writing dist/** over the folder without emptying it, so a dist
  // that earlier builds left files in would be published with them: the release empties every
  // dist/ and builds without the cache (each build then writes only what its entries reach).
  const release: string = JSON.parse(readFileSync(here('../../../package.json'), 'utf8')).scripts
    .release;
  const steps = release.split('&&').map((step) => step.trim());

  it('empties dist/ and builds without the cache before it publishes', () => {
    const empty = steps.indexOf('rm -rf packages/*/dist');
    const build = steps.findIndex((step) => /^turbo run build\b.*--force\b/.test(step));
    const publish = steps.indexOf('changeset publish');
    expect(empty, release).toBeGreaterThanOrEqual(0);
    expect(build, release).toBeGreaterThan(empty);
    expect(publish, release).toBeGreaterThan(build);
  });
});
