import { type CorsOption, parseCorsOrigins } from './cors';
import { unknownOption } from './field-names';

interface CliOptions {
  port: number;
  host: string;
  scenarioFile?: string;
  /** `--cors`: origins allowed to call from a browser, or true for any. */
  cors?: CorsOption;
  help: boolean;
}

export const USAGE = `Usage: infergate-emulator [--port N] [--host H] [--scenario file.json] [--cors ORIGINS]

Starts a local inference gateway emulator and prints its base URL and an API key as shell
lines to paste: export INFERGATE_BASE_URL=… and export INFERGATE_API_KEY=…
  --port N            port to listen on (default 8787; 0 picks a free port)
  --host H            interface to listen on (default 127.0.0.1)
  --scenario FILE     scenario merged over the default scenario: JSON, or JSONC (comments
                      and trailing commas allowed)
  --cors ORIGINS      let browser apps call it: '*' for any origin, or origins separated by
                      commas (http://localhost:5173,http://127.0.0.1:3000)
  -h, --help          show this help`;

/** Parses the CLI's arguments; throws an Error with a readable message on bad input. */
export function parseCliArgs(argv: string[]): CliOptions {
  const options: CliOptions = { port: 8787, host: '127.0.0.1', help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg];
    const value = () => {
      const next = inline ?? argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--port': {
        const raw = value();
        // Digits only: `Number` reads '' and ' ' as 0 (a random port), '0x1f90' and '1e3' too.
        const port = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
        if (!(port <= 65535)) {
          throw new Error(`--port must be an integer from 0 to 65535, got '${raw}'`);
        }
        options.port = port;
        break;
      }
      case '--host': {
        const raw = value();
        // `--host "$HOST"` with HOST unset: '' would listen on every interface, the URL `http://:PORT`.
        if (raw.trim() === '') {
          throw new Error(`--host must be an interface name or address, got '${raw}'`);
        }
        options.host = raw;
        break;
      }
      case '--scenario':
        options.scenarioFile = value();
        break;
      case '--cors':
        options.cors = parseCorsOrigins(value());
        break;
      case '-h':
      case '--help':
        options.help = true;
        break;
      default:
        throw new Error(unknownArgument(arg, flag ?? arg));
    }
  }
  return options;
}

const FLAGS = ['--port', '--host', '--scenario', '--cors', '--help', '-h'];

/** An argument none of ours is; a flag's typo is named with the closest flag. */
function unknownArgument(arg: string, flag: string): string {
  return flag.startsWith('-')
    ? unknownOption(flag, FLAGS, 'infergate-emulator')
    : `Unknown argument '${arg}'`;
}
