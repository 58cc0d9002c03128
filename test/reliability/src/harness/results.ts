import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `pnpm stress` sets RELIABILITY_STRESS=1: the same files run longer and bigger. */
export const STRESS = process.env.RELIABILITY_STRESS === '1';

const RESULTS_DIR = fileURLToPath(new URL('../../results/', import.meta.url));

/** Writes a result file that `scripts/render-report.mjs` turns into RELIABILITY.md tables. */
export function writeResult(name: string, data: unknown): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(
    `${RESULTS_DIR}${name}.json`,
    `${JSON.stringify({ generatedAt: new Date().toISOString(), stress: STRESS, ...(data as object) }, null, 2)}\n`,
  );
}

/** Runs `tasks` with at most `limit` at once. */
export async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
