// Lists the uses of APIs marked `@deprecated` (TypeScript's "is deprecated" suggestions, which `tsc`
// does not report) in the TypeScript files of a project, so that READMEs and examples teach the
// current API of the `ai` (and every other) version they install. Run in its own process, as the
// language service works synchronously for seconds:
//
//   node scripts/readme-test/deprecated.mjs DIR
//
// DIR holds the tsconfig.json; prints `file(line): message` for each use (file relative to DIR,
// node_modules left out) and exits 1 when there is one.
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const require = createRequire(new URL('../../package.json', import.meta.url));
const ts = require('typescript');

const dir = resolve(process.argv[2] ?? '.');
const parsed = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), undefined, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  },
});
const service = ts.createLanguageService({
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
});
let uses = 0;
for (const file of parsed.fileNames.filter((name) => !name.includes('/node_modules/'))) {
  for (const diagnostic of service.getSuggestionDiagnostics(file)) {
    if (!diagnostic.reportsDeprecated || diagnostic.file === undefined) continue;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    console.log(`${relative(dir, file)}(${line + 1}): ${message}`);
    uses++;
  }
}
process.exitCode = uses > 0 ? 1 : 0;
