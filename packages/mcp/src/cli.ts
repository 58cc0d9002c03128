import { isGatewayError } from '@infergate/core';
import { CliUsageError, runCli } from './cli-main';

const log = (line: string) => process.stderr.write(`${line}\n`);

try {
  const running = await runCli(process.argv.slice(2), process.env, { log });
  if (running !== undefined) {
    const stop = async () => {
      await running.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await running.done;
    process.exit(0);
  }
} catch (error) {
  if (error instanceof CliUsageError) {
    log(`infergate-mcp: ${error.message}\nRun infergate-mcp --help for the options.`);
    process.exit(2);
  }
  // configuration_error names the setting, never its value (a key pasted into the URL stays hidden).
  log(`infergate-mcp: ${isGatewayError(error) ? error.message : String(error)}`);
  process.exit(1);
}
