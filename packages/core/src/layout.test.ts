import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layout of src/ (CONTRIBUTING.md, "Where each behaviour lives"): the entries at the root, every
// other file in the folder of its concern, and imports that flow one way — between files and
// between folders — so a rule can be read (and moved) without following a circle.
const src = import.meta.dirname;
const ENTRIES = ['index', 'internal', 'internal-service-tools', 'internal-stream', 'otel'];

/** Every non-test source file of src/, as a path without `.ts` (`http/transport`). */
function sourceFiles(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => file.slice(0, -3))
    .sort();
}

/** file → the files it imports (static, dynamic and re-exports; type-only imports included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const source = readFileSync(join(src, `${file}.ts`), 'utf8');
    const targets = [...source.matchAll(/(?:\bfrom|\bimport\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
      posix.join(posix.dirname(file), m[1]!),
    );
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** A circle of the graph (`[a, b, a]`), or undefined when there is none. */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const cycle = visit(node);
      if (cycle) return cycle;
    }
  }
  return undefined;
}

/** The top-level folder of a file (`chat/stream/x` → `chat`); the entries are `.`. */
const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

describe('the layout of src/', () => {
  it('finds circles (the check below would catch one)', () => {
    const circle = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(findCycle(circle)).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle(new Map([['a', ['b']]]))).toBeUndefined();
  });

  it('has the entries at the root and every other file in a folder', () => {
    const graph = importGraph();
    expect(sourceFiles().filter((file) => !file.includes('/'))).toEqual(ENTRIES);
    for (const [file, targets] of graph) {
      for (const target of targets) {
        expect(graph.has(target), `${file} imports ${target}, which is not a source file`).toBe(
          true,
        );
      }
    }
  });

  it('has no circle of imports between files', () => {
    expect(findCycle(importGraph())).toBeUndefined();
  });

  it('has no circle of imports between folders, and no file imports an entry', () => {
    const folders = new Map<string, string[]>();
    for (const [file, targets] of importGraph()) {
      for (const target of targets) {
        expect(ENTRIES, `${file} imports the entry ${target}`).not.toContain(target);
        const from = folderOf(file);
        const to = folderOf(target);
        if (from === to) continue;
        folders.set(from, [...new Set([...(folders.get(from) ?? []), to])]);
      }
    }
    expect(findCycle(folders)).toBeUndefined();
  });

  it('the main entry lists its exports by name', () => {
    const index = readFileSync(join(src, 'index.ts'), 'utf8');
    expect(index).not.toMatch(/export (?:type )?\*/);
  });
});
