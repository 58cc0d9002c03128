// The README test's check of the export lists: in a package README, the section headed `Exports`
// or `Other exports` names only what the package exports. Every name in it that reads as an
// export — a backticked `Name` or `CONSTANT`, or the head of a backticked call (`name(…)`,
// `new Name(…)`) — must be exported by the package's main entry or by a subpath the section
// names (`@infergate/x/sub`, or `` `/sub` ``). Read from the built declarations (dist/*.d.ts).

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Every `## Exports` / `### Other exports` section of `markdown`: its heading's line, its lines,
 * and the number of the first of them.
 */
export function exportSections(markdown) {
  const lines = markdown.split('\n');
  const sections = [];
  for (let i = 0; i < lines.length; i++) {
    const heading = /^(#{2,4})\s+(?:Other\s+)?exports\s*$/i.exec(lines[i]);
    if (!heading) continue;
    let end = i + 1;
    while (end < lines.length && !/^#{1,4}\s/.test(lines[end])) end++;
    sections.push({ line: i + 1, lines: lines.slice(i + 1, end), firstLine: i + 2 });
  }
  return sections;
}

/** The names a section states as exports, each with its line in the file. */
export function namedExports({ lines, firstLine }) {
  const named = [];
  lines.forEach((text, index) => {
    for (const [, token] of text.matchAll(/`([^`]+)`/g)) {
      const call = /^(?:new\s+)?([A-Za-z_$][\w$]*)\(/.exec(token)?.[1];
      const name = call ?? (/^[A-Z][\w$]*$/.test(token) ? token : undefined);
      if (name !== undefined) named.push({ name, line: firstLine + index });
    }
  });
  return named;
}

/** The names `entries` (declaration files) export, read with TypeScript's checker. */
function declaredExports(root, entries) {
  const ts = createRequire(join(root, 'package.json'))('typescript');
  const program = ts.createProgram(entries, { noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const names = new Set();
  for (const entry of entries) {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(entry));
    if (symbol) for (const s of checker.getExportsOfModule(symbol)) names.add(s.name);
  }
  return names;
}

/**
 * The problems of the export lists of `file` (a `packages/<dir>/README.md`): `[{ line, message }]`.
 * Other files have none to check.
 */
export function exportListProblems(root, file) {
  const dir = /^packages\/([^/]+)\/README\.md$/.exec(file)?.[1];
  if (dir === undefined) return [];
  const sections = exportSections(readFileSync(join(root, file), 'utf8'));
  if (sections.length === 0) return [];
  const pkgDir = join(root, 'packages', dir);
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const problems = [];
  for (const section of sections) {
    const text = section.lines.join('\n');
    const subpaths = Object.keys(pkg.exports ?? {}).filter(
      (sub) =>
        sub === '.' ||
        text.includes(`${pkg.name}${sub.slice(1)}\``) ||
        text.includes(`\`${sub.slice(1)}\``),
    );
    const entries = subpaths
      .map((sub) => pkg.exports[sub]?.import?.types)
      .filter(Boolean)
      .map((types) => join(pkgDir, types));
    const missing = entries.filter((entry) => !existsSync(entry));
    if (missing.length > 0) {
      problems.push({ line: section.line, message: `not built: ${missing.join(', ')}` });
      continue;
    }
    const exported = declaredExports(root, entries);
    for (const { name, line } of namedExports(section)) {
      if (!exported.has(name))
        problems.push({
          line,
          message: `the export list names \`${name}\`, which ${pkg.name} (${subpaths.join(', ')}) does not export`,
        });
    }
  }
  return problems;
}
