import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A polled wait (`vi.waitFor`, `vi.waitUntil`, `expect.poll`) in any test of the repository names
// its `timeout`. Vitest's default, 1 s, is a speed limit, not a hang guard: on CI's 2 loaded cores
// a budget's queue took longer than that to fill, and the test failed on a correct client.
const POLLED_WAITS = new Set(['vi.waitFor', 'vi.waitUntil', 'expect.poll']);
const repo = join(import.meta.dirname, '..', '..', '..');
const TEST_ROOTS = ['packages', 'test', 'bench'];

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.cache', '.next', '.turbo']);

/** Every test file under `dir` (relative to the repository), dependencies and builds left out. */
function testFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(repo, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) files.push(...testFiles(path));
    else if (entry.isFile() && /\.test\.m?[tj]sx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

/** `file:line callee` of each polled wait without a `timeout` in its options. */
function waitsWithoutTimeout(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && POLLED_WAITS.has(node.expression.getText(sf))) {
      const options = node.arguments[1];
      const named =
        options !== undefined &&
        ts.isObjectLiteralExpression(options) &&
        options.properties.some((p) => p.name !== undefined && p.name.getText(sf) === 'timeout');
      if (!named) {
        const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        found.push(`${file}:${line} ${node.expression.getText(sf)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('polled waits in tests', () => {
  it('each names its timeout (a hang guard), never relying on the 1 s default', () => {
    const files = TEST_ROOTS.flatMap(testFiles);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      waitsWithoutTimeout(file, readFileSync(join(repo, file), 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('finds a wait that relies on the default, and accepts one that names its timeout', () => {
    const text = [
      'await vi.waitFor(() => expect(a).toBe(1));',
      'await expect.poll(() => b, { interval: 5 }).toBe(2);',
      'await vi.waitFor(() => expect(c).toBe(3), { timeout: 30_000 });',
    ].join('\n');
    expect(waitsWithoutTimeout('x.test.ts', text)).toEqual([
      'x.test.ts:1 vi.waitFor',
      'x.test.ts:2 expect.poll',
    ]);
  });
});
