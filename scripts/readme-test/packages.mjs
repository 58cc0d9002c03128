// The published packages as tarballs (packed here, or taken from a directory that holds them), and
// the versions an install line's unversioned third-party packages get: the workspace's own, from
// pnpm-lock.yaml, so that the README test installs what the rest of the suite tests (and what
// npm's cache already holds).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** name → { dir, version, tarball, bins, infergateDependencies } of every published package. */
export function publishedPackages(root, tarballDir) {
  const packages = new Map();
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const path = join(root, 'packages', dir, 'package.json');
    if (!existsSync(path)) continue;
    const pkg = JSON.parse(readFileSync(path, 'utf8'));
    if (pkg.private) continue;
    packages.set(pkg.name, {
      dir: join(root, 'packages', dir),
      version: pkg.version,
      tarball: join(tarballDir, `${pkg.name.slice(1).replace('/', '-')}-${pkg.version}.tgz`),
      bins: Object.keys(typeof pkg.bin === 'string' ? { [dir]: pkg.bin } : (pkg.bin ?? {})),
      infergateDependencies: Object.keys(pkg.dependencies ?? {}).filter((name) =>
        name.startsWith('@infergate/'),
      ),
    });
  }
  return packages;
}

/** Packs every published package into `tarballDir` (`pnpm pack` writes the real version ranges). */
export function packAll(packages, tarballDir) {
  for (const { dir } of packages.values()) {
    execFileSync('pnpm', ['pack', '--pack-destination', tarballDir], { cwd: dir, stdio: 'ignore' });
  }
}

/** The tarballs of `name` and of the @infergate packages it depends on, dependencies first. */
export function tarballClosure(packages, name, seen = new Set()) {
  if (seen.has(name)) return [];
  seen.add(name);
  const pkg = packages.get(name);
  if (pkg === undefined) return [];
  return [
    ...pkg.infergateDependencies.flatMap((dep) => tarballClosure(packages, dep, seen)),
    pkg.tarball,
  ];
}

/** The exact version each package is pinned to in the workspace (the highest, when several are). */
export function workspaceVersions(root) {
  const lock = readFileSync(join(root, 'pnpm-lock.yaml'), 'utf8');
  const importers = lock.slice(lock.indexOf('\nimporters:'), lock.indexOf('\npackages:'));
  const versions = new Map();
  const newer = (a, b) => {
    const [x, y] = [a, b].map((v) => v.split(/[.-]/).map(Number));
    const order = x.map((n, i) => n - (y[i] ?? 0)).find((d) => d !== 0) ?? 0;
    return order > 0;
  };
  for (const match of importers.matchAll(
    /^ {6}'?([@a-z0-9][^':\n]*)'?:\n {8}specifier: (\d+\.\d+\.\d+)\n/gm,
  )) {
    const [, name, version] = match;
    if (!versions.has(name) || newer(version, versions.get(name))) versions.set(name, version);
  }
  return versions;
}
