// Packs every published package once into one directory (default `.tarballs/`, or
// INFERGATE_TARBALLS), for the three tests that install the tarballs with npm: the pack-and-install
// test, the README test and the examples test read them from there when INFERGATE_TARBALLS is set
// (scripts/test.sh sets it and runs this first, as Turbo's `pack-tarballs` task), instead of each
// packing its own set. The packages must be built.
//
//   node scripts/pack-tarballs.mjs [DIR]
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { packAll, publishedPackages } from './readme-test/packages.mjs';

const root = new URL('..', import.meta.url).pathname;
const dir = resolve(root, process.argv[2] ?? process.env.INFERGATE_TARBALLS ?? '.tarballs');
// A fresh set: a tarball of an earlier version must not be installed beside this one.
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const packages = publishedPackages(root, dir);
packAll(packages, dir);
console.log(`pack-tarballs: packed ${[...packages.keys()].join(', ')} into ${dir}`);
