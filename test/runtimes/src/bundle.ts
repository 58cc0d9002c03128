import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Settings } from './worker/handler';

export const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Bundles one entry of `src/worker/` for a runtime, as a developer's bundler would for the edge or
 * the browser (platform `browser`, the runtime's export conditions first).
 */
export async function bundleWorker(
  entry: string,
  options: { conditions: string[]; format: 'esm' | 'iife'; settings?: Settings },
): Promise<string> {
  const result = await build({
    entryPoints: [here(`./worker/${entry}`)],
    bundle: true,
    write: false,
    platform: 'browser',
    format: options.format,
    target: 'es2022',
    conditions: options.conditions,
    define:
      options.settings === undefined ? {} : { __SETTINGS__: JSON.stringify(options.settings) },
    logLevel: 'silent',
  });
  const output = result.outputFiles?.[0];
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return output.text;
}
