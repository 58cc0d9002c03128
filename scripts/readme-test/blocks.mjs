// Reads the fenced code blocks of a Markdown file, and what the README test needs to know about
// each: its language, where it is, whether it is marked a fragment, which packages its install lines
// name or its imports use, and the output its `prints:` comments promise.
import { builtinModules } from 'node:module';

/** The fence languages the README test runs, by the kind of block it makes of them. */
export const KIND_OF_LANGUAGE = {
  ts: 'ts',
  typescript: 'ts',
  mts: 'ts',
  js: 'js',
  javascript: 'js',
  mjs: 'js',
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
};

/** `<!-- fragment: why -->` on the last non-blank line before a fence: the block is not run. */
const FRAGMENT_MARKER = /^\s*<!--\s*fragment:(.*?)-->\s*$/;

/**
 * `<!-- excerpt: path -->` there: the block is a piece of that file (relative to the Markdown
 * file's folder), not run but checked against it (see excerpt.mjs).
 */
const EXCERPT_MARKER = /^\s*<!--\s*excerpt:(.*?)-->\s*$/;

/**
 * The fenced blocks of `markdown`: `line` is the fence's line (1-based), `code` the content with
 * the fence's indentation removed (a block inside a list item is indented), `kind` from the
 * language (`undefined`: not one the test runs, e.g. `json` or `text`), `fragment` the marker's
 * reason, `excerpt` the file an excerpt marker names, and `problem` a marker without its reason
 * or file.
 */
export function codeBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})\s*([^\s`]*)(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, language, rest] = open;
    const close = new RegExp(`^ *${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end])) end++;
    const code = lines
      .slice(i + 1, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join('\n');
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const marker = before >= 0 ? FRAGMENT_MARKER.exec(lines[before]) : null;
    const reason = marker?.[1].trim();
    const excerpt = before >= 0 ? EXCERPT_MARKER.exec(lines[before]) : null;
    const source = excerpt?.[1].trim();
    blocks.push({
      line: i + 1,
      language: language.toLowerCase(),
      info: rest.trim(),
      kind: KIND_OF_LANGUAGE[language.toLowerCase()],
      code: `${code}\n`,
      fragment: reason || undefined,
      excerpt: source || undefined,
      problem:
        (marker && !reason ? 'a fragment marker needs a reason: <!-- fragment: why -->' : '') ||
        (excerpt && !source ? 'an excerpt marker needs its file: <!-- excerpt: path -->' : ''),
    });
    i = end;
  }
  return blocks;
}

/** `@scope/name@1.2.3` → `@scope/name`; `zod@4` → `zod`; `ai` → `ai`. */
export const packageNameOf = (spec) => spec.replace(/^(@?[^@]+)@.*$/, '$1');

/** The package a bare import specifier resolves in (`@langchain/core/prompts` → `@langchain/core`). */
export function importedPackage(specifier) {
  if (/^(\.|\/|node:|data:|file:)/.test(specifier)) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? undefined : name;
}

/** The code without `//` and `/* *\/` comments (a `//` after `:` is a URL and stays). */
const withoutComments = (code) =>
  code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** The packages a JavaScript or TypeScript block imports (static, dynamic, re-exports, require). */
export function importedPackages(code) {
  const source = withoutComments(code);
  const specifiers = [
    ...source.matchAll(/\b(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g),
    ...source.matchAll(/\bimport\s*['"]([^'"]+)['"]/g),
    ...source.matchAll(/\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]);
  return [...new Set(specifiers.map(importedPackage).filter(Boolean))];
}

/**
 * The shell commands of a line, split on `&&`, `||` and `;`, with a trailing `# comment` removed
 * (quotes are not parsed: install lines have none).
 */
export const commandsOf = (line) =>
  line
    .replace(/(^|\s)#.*$/, '')
    .split(/&&|\|\||;/)
    .map((command) => command.trim())
    .filter(Boolean);

/** `npm install|i|add [flags] spec…` → its package specs, else undefined. */
export function npmInstallSpecs(command) {
  const words = command.split(/\s+/);
  if (words[0] !== 'npm' || !['install', 'i', 'add'].includes(words[1])) return undefined;
  return words.slice(2).filter((word) => !word.startsWith('-'));
}

/** The packages the install lines (`npm install …`) of a shell block name. */
export function installedPackages(code) {
  return code
    .split('\n')
    .flatMap(commandsOf)
    .flatMap((command) => npmInstallSpecs(command) ?? [])
    .map(packageNameOf);
}

/**
 * What a block promises to print: each `// prints: text` (or `# prints: text` in a shell block),
 * with the block line it is on (1 = the first line after the fence). In `text`, `…` stands for
 * anything on that output line. `what = 'warns'` reads the `// warns: text` comments, which promise
 * what it writes to stderr (a block without them must write nothing there).
 */
export function promisedOutput(code, what = 'prints') {
  const found = [];
  const comment = new RegExp(`(?://|#)\\s*${what}:\\s?(.*)$`);
  code.split('\n').forEach((line, index) => {
    const match = comment.exec(line);
    if (match) found.push({ text: match[1].trim(), blockLine: index + 1 });
  });
  return found;
}

/**
 * Whether `output` holds every promised text, in order: the first one missing (with where the
 * search stopped), or undefined.
 */
export function missingOutput(promises, output) {
  let from = 0;
  for (const promise of promises) {
    const pattern = new RegExp(
      promise.text
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^\\n]*?'),
    );
    const match = pattern.exec(output.slice(from));
    if (!match) return { promise, searchedFrom: from };
    from += match.index + match[0].length;
  }
  return undefined;
}
