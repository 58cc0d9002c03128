// The README test's check of an excerpt (a block marked `<!-- excerpt: path -->`, e.g. an
// example's README quoting its src/index.ts): every non-blank line of the block, without its
// indentation, is a line of the file, in the same order (lines may be left out between them, and
// a line `// …` or `…` says so). A self-test block's `self-test:` line is not part of it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ELIDED = /^(?:\/\/\s*)?…$/;

/** The problem of an excerpt block of `file` (both relative to `root`), or undefined. */
export function excerptProblem(root, file, block) {
  const path = join(root, dirname(file), block.excerpt);
  const shown = relative(root, path);
  if (!existsSync(path)) return `the excerpt's file ${shown} does not exist`;
  const source = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim());
  let from = 0;
  const lines = block.code.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].trim();
    if (line === '' || ELIDED.test(line) || line.includes('self-test:')) continue;
    const at = source.indexOf(line, from);
    if (at === -1) {
      const anywhere = source.includes(line) ? ' after the line before it' : '';
      return `line ${block.line + index + 1} of the excerpt is not in ${shown}${anywhere}: ${line}`;
    }
    from = at + 1;
  }
  return undefined;
}
