// Lists the uses of APIs marked `@deprecated` (TypeScript's "is deprecated" suggestions, which `tsc`
// does not report) in the TypeScript files of a project, so that READMEs and examples teach the
// current API of the `ai` (and every other) version they install. Run in its own process, as the
// language service works synchronously for seconds:
//
//   node scripts/readme-test/deprecated.mjs DIR
//   node scripts/readme-test/deprecated.mjs --serve
//
// DIR holds the tsconfig.json; prints `file(line): message` for each use (file relative to DIR,
// node_modules left out) and exits 1 when there is one. `--serve` checks one DIR per line of its
// input and answers each with a JSON line (`{ "uses": [...] }` or `{ "error": "..." }`): the README
// and examples tests check a project each in one process (deprecations.mjs), which parses
// TypeScript's lib files and the workspace's @types/node once instead of once per project (about
// half of a check's CPU).
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const require = createRequire(new URL('../../package.json', import.meta.url));
const ts = require('typescript');

/**
 * A document registry that keeps the files outside the checked project (TypeScript's lib files,
 * the workspace's @types) for the next project, and lets the project's own go with its service.
 */
function sharingRegistry() {
  const registry = ts.createDocumentRegistry();
  let project = '';
  const release = registry.releaseDocumentWithKey.bind(registry);
  registry.releaseDocumentWithKey = (path, ...rest) => {
    if (path.startsWith(project)) release(path, ...rest);
  };
  return {
    registry,
    checking(dir) {
      // As the registry names files: TypeScript's path of the file (`/`), lowercased where the
      // file system ignores case.
      const prefix = `${dir.replaceAll('\\', '/')}/`;
      project = ts.sys.useCaseSensitiveFileNames ? prefix : prefix.toLowerCase();
    },
  };
}

/** The uses of deprecated APIs in DIR's TypeScript files: `file(line): message` each. */
function deprecatedUses(dir, registry) {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  const service = ts.createLanguageService(
    {
      getScriptFileNames: () => parsed.fileNames,
      getScriptVersion: () => '1',
      getScriptSnapshot: (file) =>
        ts.sys.fileExists(file) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(file)) : undefined,
      getCurrentDirectory: () => dir,
      getCompilationSettings: () => parsed.options,
      getDefaultLibFileName: (options) =>
        join(dirname(ts.getDefaultLibFilePath(options)), ts.getDefaultLibFileName(options)),
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
      realpath: ts.sys.realpath,
    },
    registry,
  );
  const uses = [];
  try {
    for (const file of parsed.fileNames.filter((name) => !name.includes('/node_modules/'))) {
      for (const diagnostic of service.getSuggestionDiagnostics(file)) {
        if (!diagnostic.reportsDeprecated || diagnostic.file === undefined) continue;
        const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
        uses.push(`${relative(dir, file)}(${line + 1}): ${message}`);
      }
    }
  } finally {
    service.dispose();
  }
  return uses;
}

if (process.argv[2] === '--serve') {
  const shared = sharingRegistry();
  for await (const line of createInterface({ input: process.stdin })) {
    const dir = resolve(line);
    let answer;
    try {
      shared.checking(dir);
      answer = { uses: deprecatedUses(dir, shared.registry) };
    } catch (error) {
      answer = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
} else {
  const uses = deprecatedUses(resolve(process.argv[2] ?? '.'), ts.createDocumentRegistry());
  for (const use of uses) console.log(use);
  process.exitCode = uses.length > 0 ? 1 : 0;
}
