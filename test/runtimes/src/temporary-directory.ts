import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global setup: the runtimes' temporary files go to one directory of this run, deleted
 * when every file has finished. Miniflare deletes its own directory without waiting for it, so a
 * worker that exits right after `dispose()` left one behind in the system's temporary directory
 * on each run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'infergate-runtimes-test-'));
  // Read by os.tmpdir() in the test workers, which start after this.
  process.env.TMPDIR = dir;
  return () => rm(dir, { recursive: true, force: true, maxRetries: 5 });
}
