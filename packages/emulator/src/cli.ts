import { readFile } from 'node:fs/promises';
import { parseCliArgs, USAGE } from './cli-args';
import type { ScenarioInput } from './scenario';
import { startEmulator } from './server';

async function main(): Promise<void> {
  const options = parseCliArgs(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const scenario = options.scenarioFile
    ? (JSON.parse(await readFile(options.scenarioFile, 'utf8')) as ScenarioInput)
    : undefined;
  const server = await startEmulator({
    port: options.port,
    host: options.host,
    scenario,
    ...(options.cors !== undefined ? { cors: options.cors } : {}),
  });
  console.log('infergate emulator is listening');
  console.log(`INFERGATE_BASE_URL=${server.url}`);
  console.log(`INFERGATE_API_KEY=${server.apiKey}`);
  if (options.cors !== undefined) {
    console.log(`CORS: ${options.cors === true ? 'any origin' : options.cors.join(', ')}`);
  }
  console.log(
    `Try: curl -H 'Authorization: Bearer ${server.apiKey}' ${server.url}/models   (Ctrl+C stops)`,
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
  console.error(USAGE);
  process.exit(2);
});
