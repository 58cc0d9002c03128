import { build } from 'esbuild';
const root = process.argv[2];
const r = await build({ entryPoints: [root + '/packages/core/src/index.ts'], bundle: true, splitting: true, outdir: '/tmp/rp-srcout', format: 'esm', platform: 'neutral', minify: true, metafile: true, write: false, logLevel: 'silent' });
const sizes = {};
for (const [p, o] of Object.entries(r.metafile.outputs)) for (const [f, {bytesInOutput}] of Object.entries(o.inputs)) sizes[f.replace(/^.*packages\/core\/src\//,'')] = bytesInOutput;
console.log(JSON.stringify(sizes));
