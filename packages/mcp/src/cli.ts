import { isGatewayError } from '@infergate/core';
import { cliSecrets } from './cli-args';
import { CliUsageError, runCli } from './cli-main';
import { redactMessage } from './redact-message';

const argv = process.argv.slice(2);
// Every line, startup errors included, with the key, the token and URL credentials replaced.
const secrets = cliSecrets(argv, process.env);
const log = (line: string) => process.stderr.write(`${redactMessage(line, secrets)}\n`);
// --help and --version start no server, so stdout is free for them; everything else stays on stderr.
const print = (text: string) => process.stdout.write(`${text}\n`);

// SIGINT / SIGTERM close the server and exit 0, also while it starts (the first catalog read may
// take 5 s): then it stops as soon as it has started, instead of dying by the signal.
let running: Awaited<ReturnType<typeof runCli>>;
let stopping = false;
const stop = async () => {
  stopping = true;
  if (running === undefined) {
    log('infergate-mcp: stopping once started');
    return;
  }
  await running.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
try {
  running = await runCli(argv, process.env, { log, print });
  if (running !== undefined) {
    if (stopping) await stop();
    await running.done;
    process.exit(0);
  }
} catch (error) {
  if (error instanceof CliUsageError) {
    log(`infergate-mcp: ${error.message}\nRun infergate-mcp --help for the options.`);
    process.exit(2);
  }
  // configuration_error names the setting, never its value (a key pasted into the URL stays hidden);
  // any other error's message is redacted by log.
  log(`infergate-mcp: ${isGatewayError(error) ? error.message : String(error)}`);
  process.exit(1);
}
