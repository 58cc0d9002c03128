import { parseCliArgs, USAGE } from './cli-args';
import { readScenarioFile, ScenarioFileError } from './scenario-file';
import { startEmulator } from './server';

/** Single-quoted for a POSIX shell, so that the printed lines can be pasted or `eval`ed as they are. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

async function main(): Promise<void> {
  const options = parseCliArgs(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const scenario = options.scenarioFile ? await readScenarioFile(options.scenarioFile) : undefined;
  const server = await startEmulator({
    port: options.port,
    host: options.host,
    scenario,
    ...(options.cors !== undefined ? { cors: options.cors } : {}),
  });
  // `export` lines and `#` comments only: the whole output can be pasted into a shell or
  // `eval`ed (`eval "$(grep '^export ' emulator.log)"` after `infergate-emulator > emulator.log &`).
  console.log('# infergate emulator is listening');
  console.log(`export INFERGATE_BASE_URL=${shellQuote(server.url)}`);
  console.log(`export INFERGATE_API_KEY=${shellQuote(server.apiKey)}`);
  if (options.cors !== undefined) {
    console.log(`# CORS: ${options.cors === true ? 'any origin' : options.cors.join(', ')}`);
  }
  console.log(
    `# Try: curl -H 'Authorization: Bearer ${server.apiKey}' ${server.url}/models   (Ctrl+C stops)`,
  );
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`infergate-emulator: ${error instanceof Error ? error.message : String(error)}`);
  // The usage helps with the arguments, not with what is wrong inside a scenario file.
  if (!(error instanceof ScenarioFileError)) console.error(USAGE);
  process.exit(2);
});
