import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A function of every package's source is at most MAX_LINES physical lines (core's: CORE_MAX_LINES,
// the request path a newcomer reads), from its first token
// (its signature; not the doc comment above it) to its closing brace: lines as a reader scrolls
// them, blank and comment lines included. (Biome's limit counted logical lines and let a 110-line
// function through.) Every function-like node with a body counts: declarations, methods, arrows,
// function expressions, accessors, constructors; a nested function counts on its own and in its
// parent's lines. The only exemptions are data tables (a function whose body is one literal), each
// named below with its reason; an exemption that matches no over-long function fails too, so the
// list only shrinks.
const MAX_LINES = 80;
const CORE_MAX_LINES = 60;
const repo = join(import.meta.dirname, '..', '..', '..');
const packagesDir = join(repo, 'packages');

/** `packages/<pkg>/src/<file> <name>` → why its length is allowed. Data tables only. */
const DATA_TABLES: Record<string, string> = {
  'packages/emulator/src/default-scenario.ts defaultScenario':
    'a data table: the default scenario (its keys, models and services) as one object literal',
};

interface LongFunction {
  /** `packages/<pkg>/src/<file> <name>`, as the exemptions name it. */
  key: string;
  /** `packages/<pkg>/src/<file>:<line> <name> (<N> lines)`. */
  report: string;
}

/** Every non-test source file of every package, relative to the repository. */
function sourceFiles(): string[] {
  const files: string[] = [];
  for (const pkg of readdirSync(packagesDir).sort()) {
    let names: string[];
    try {
      names = readdirSync(join(packagesDir, pkg, 'src'), { recursive: true, encoding: 'utf8' });
    } catch {
      continue; // not a package with sources
    }
    for (const name of names.map((file) => file.split('\\').join('/')).sort()) {
      if (/\.tsx?$/.test(name) && !/\.test(?:-d)?\.tsx?$/.test(name)) {
        files.push(`packages/${pkg}/src/${name}`);
      }
    }
  }
  return files;
}

/** A property or binding name as written, when it is one. */
function nameText(name: ts.Node | undefined, sf: ts.SourceFile): string | undefined {
  if (name === undefined) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) {
    return name.text;
  }
  return name.getText(sf);
}

/**
 * The name a reader would look for: its own (a class member's as `Class.member`), else the
 * variable or property it is assigned to, else `(anonymous)`.
 */
function functionName(node: ts.SignatureDeclaration, sf: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return `${className(node.parent)}.constructor`;
  const own = nameText(node.name, sf);
  if (own !== undefined) {
    return ts.isClassLike(node.parent) ? `${className(node.parent)}.${own}` : own;
  }
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    parent.initializer === node
  ) {
    const assigned = nameText(parent.name, sf);
    if (assigned !== undefined) {
      return ts.isPropertyDeclaration(parent)
        ? `${className(parent.parent)}.${assigned}`
        : assigned;
    }
  }
  return '(anonymous)';
}

function className(node: ts.Node): string {
  return ts.isClassLike(node) && node.name !== undefined ? node.name.text : '(class)';
}

/** The limit of a file's functions: core's is lower. */
function limitOf(file: string): number {
  return file.startsWith('packages/core/') ? CORE_MAX_LINES : MAX_LINES;
}

/** The functions of one file longer than its limit. */
function longFunctions(
  file: string,
  text = readFileSync(join(repo, file), 'utf8'),
): LongFunction[] {
  const limit = limitOf(file);
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      if (lines > limit) {
        const name = functionName(node, sf);
        found.push({
          key: `${file} ${name}`,
          report: `${file}:${first + 1} ${name} (${lines} lines)`,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe(`every function of packages/*/src is at most ${MAX_LINES} physical lines (core's ${CORE_MAX_LINES})`, () => {
  const files = sourceFiles();
  const long = files.flatMap((file) => longFunctions(file));

  it('finds the sources of every package', () => {
    for (const pkg of ['core', 'ai-sdk', 'langchain', 'redis', 'mcp', 'emulator']) {
      expect(
        files.some((file) => file.startsWith(`packages/${pkg}/src/`)),
        pkg,
      ).toBe(true);
    }
  });

  it('except the exempted data tables', () => {
    const over = long.filter(({ key }) => !(key in DATA_TABLES)).map(({ report }) => report);
    expect(over, 'functions over their limit: split them into named helpers').toEqual([]);
  });

  it('exempts only functions that are still over the limit', () => {
    const stale = Object.keys(DATA_TABLES).filter((key) => !long.some((fn) => fn.key === key));
    expect(stale, 'exemptions that match no function over the limit: remove them').toEqual([]);
  });

  it('counts physical lines, nested functions and class members included', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  // ${i}`).join('\n');
    const source = [
      `function short() {\n${body(78)}\n}`, // 80 lines
      `function long() {\n${body(79)}\n}`, // 81 lines
      `class Box {\n  method() {\n${body(80)}\n  }\n}`,
      `const arrow = () => {\n${body(79)}\n};`,
    ].join('\n');
    const names = longFunctions('x.ts', source).map(({ key }) => key.slice('x.ts '.length));
    expect(names).toEqual(['long', 'Box.method', 'arrow']);
    const core = [`function short() {\n${body(58)}\n}`, `function long() {\n${body(59)}\n}`];
    const inCore = longFunctions('packages/core/src/x.ts', core.join('\n'));
    expect(inCore.map(({ key }) => key)).toEqual(['packages/core/src/x.ts long']);
  });
});
