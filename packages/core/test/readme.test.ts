import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChatRouteHop, CLIENT_ERROR_CODES, GATEWAY_ERROR_CODES } from '../src/index';

const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const source = (file: string) => readFileSync(join(root, 'src', file), 'utf8');

/** The names `src/index.ts` exports (it lists every one, types included, by name). */
function exportedNames(): string[] {
  const named = [...source('index.ts').matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((m) =>
    m[1]!.split(',').map((part) => part.replace(/\btype\b/, '').trim()),
  );
  return [...new Set(named)].filter((name) => name !== '');
}

describe('README.md', () => {
  it('names every export of the package', () => {
    // The surface itself is pinned by the API report (api-report.test.ts); here: all documented.
    const names = exportedNames();
    expect(names).toContain('isGatewayServerErrorCode');
    const missing = names.filter((name) => !new RegExp(`\\b${name}\\b`).test(readme));
    expect(missing).toEqual([]);
  });

  it('has a table row for every error code', () => {
    const missing = [...GATEWAY_ERROR_CODES, ...CLIENT_ERROR_CODES].filter(
      (code) => !readme.includes(`\n| \`${code}\` |`),
    );
    expect(missing).toEqual([]);
  });

  it('lists no error code that the package does not have', () => {
    // The tables headed `| code | when |`: a row per code, its first cell the code in backticks.
    const tables = readme
      .split('\n| code | when |\n')
      .slice(1)
      .map((rest) => rest.split('\n\n')[0]);
    const rows = tables.flatMap((table) =>
      [...table!.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]),
    );
    expect(rows.sort()).toEqual([...GATEWAY_ERROR_CODES, ...CLIENT_ERROR_CODES].sort());
  });

  it('describes every variant of ChatRouteHop, and only those', () => {
    // Each outcome once, checked by the compiler: a variant added or removed fails typecheck here.
    const outcomes = {
      skipped: true,
      deferred: true,
      failed: true,
      answered: true,
      lost: true,
      ended: true,
    } satisfies Record<ChatRouteHop['outcome'], true>;
    const described = readme.slice(readme.indexOf('(`ChatRouteHop`:'));
    const listed = [
      ...described.slice(0, described.indexOf('`answeredBy`')).matchAll(/outcome: '([a-z]+)'/g),
    ];
    expect(listed.map((match) => match[1]).sort()).toEqual(Object.keys(outcomes).sort());
  });
});
