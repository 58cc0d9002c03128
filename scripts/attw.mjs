// are-the-types-wrong on the package in the current directory (its `lint` script): on its tarball
// in INFERGATE_TARBALLS when that holds one packed after the package's last build (scripts/test.sh:
// pack-tarballs packs the build once for every test, so lint does not pack it again), else on a
// tarball packed now (`attw --pack .`). Other arguments go to attw.
//
//   node ../../scripts/attw.mjs --profile node16
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const packed = process.env.INFERGATE_TARBALLS;
const tarball = packed && join(packed, `${pkg.name.slice(1).replace('/', '-')}-${pkg.version}.tgz`);
/** The newest modification time in dist/ (0 without one): a tarball older than it is stale. */
const built = () =>
  existsSync('dist')
    ? Math.max(
        0,
        ...readdirSync('dist', { recursive: true }).map((f) => statSync(join('dist', f)).mtimeMs),
      )
    : 0;
const fresh = tarball && existsSync(tarball) && statSync(tarball).mtimeMs >= built();
const { status, error } = spawnSync(
  'attw',
  [...(fresh ? [tarball] : ['--pack', '.']), ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
if (error) throw error;
process.exit(status ?? 1);
