#!/usr/bin/env node
// Runs TypeScript 7's `tsc` with this process's arguments. Its package exports no `bin/tsc`
// subpath, so the script is found beside its package.json.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const packageJson = createRequire(import.meta.url).resolve('typescript/package.json');
await import(new URL('bin/tsc', pathToFileURL(packageJson)).href);
