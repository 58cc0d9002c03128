// docs/gateway-protocol.md §2.1 (the base URL), §2.2 (the key), §2.5 (`--redis`: the key's slots
// shared), §4.7 (the stall-timeout flags): the command's options and variables.
import { parseArgs } from 'node:util';
import { TIMEOUT_OPTIONS, type TimeoutOptions } from '@infergate/core';
import {
  describeGiven,
  readNumber,
  redisUrlFault,
  refuseUnknownOptions,
} from '@infergate/core/internal';
import { bearerTokenFault, MIN_TOKEN_LENGTH } from './bearer-token';
import { redisUrlSecrets } from './redis-url-shown';

/** What each of core's `timeouts` options does here, for the help (a new one needs its line). */
const TIMEOUT_FLAG_HELP: Record<keyof TimeoutOptions, string> = {
  timeoutMs: 'deadline of one tool call to the gateway (queue, retries, answer); default 300000',
  firstChunkTimeoutMs:
    "ask_model: leave a model that sends no content of its answer within N ms (for the call's next fallback_models entry); default: off",
  chunkTimeoutMs:
    'ask_model: fail a streamed answer silent for N ms between two chunks; default: off',
};

/** `firstChunkTimeoutMs` → `first-chunk-timeout-ms`. */
const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** Core's `timeouts` options a command line sets: one `--kebab-case-ms N` flag each. */
const TIMEOUT_FLAGS = (Object.keys(TIMEOUT_OPTIONS.fields) as (keyof TimeoutOptions)[])
  .filter((key) => TIMEOUT_OPTIONS.fields[key].kind === 'ms')
  .map((key) => ({ key, flag: kebab(key) }));

/** The flags' lines of the help: the flag, then what it does, wrapped under it. */
function timeoutFlagsHelp(): string {
  return TIMEOUT_FLAGS.map(
    ({ key, flag }) => `  --${flag} N\n${wrap(TIMEOUT_FLAG_HELP[key], 25, 97)}`,
  ).join('\n');
}

function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.map((text) => `${' '.repeat(indent)}${text}`).join('\n');
}

export const USAGE = `infergate-mcp — the inference gateway's services and models as an MCP server

Usage:
  infergate-mcp [options]                 serve over stdio (for Claude Desktop, VS Code, Cursor, …)
  infergate-mcp --http [--port N] [options]  serve over Streamable HTTP

Gateway:
  --base-url URL         gateway URL (default: INFERGATE_BASE_URL)
  --api-key KEY          gateway key (default: INFERGATE_API_KEY; prefer the variable: arguments
                         are visible to other users of this machine)
  --redis URL            share the key's 4 slots with other processes through Redis
                         (default: INFERGATE_REDIS_URL; without it, slots are shared in-process;
                         needs @infergate/redis installed beside this package)
  --catalog-refresh S    read the gateway's services again every S seconds (default 60; 0: only at start
                         and after provider_unavailable; at most 86400, a day)
${timeoutFlagsHelp()}

Files (stdio only):
  --root DIR             a directory image_path / audio_path may read from; repeatable
                         (default: the working directory; one that does not exist is refused)

URLs:
  --no-urls              do not download image_url / audio_url
  --allow-private-urls   let image_url / audio_url reach loopback, private and link-local
                         addresses (default: only public internet addresses)

HTTP:
  --http                 serve Streamable HTTP instead of stdio
  --port N               port (default 8788; 0 picks a free one)
  --host H               interface (default 127.0.0.1); on another one without --token the server
                         warns that anyone who can reach it uses your gateway key's budget
  --token T              require "Authorization: Bearer T" (default: INFERGATE_MCP_TOKEN);
                         this server's own secret, never the gateway key: at least 16
                         characters, no space at either end
  --allowed-origin O     a browser origin allowed to call (CORS answered), e.g.
                         http://localhost:5173; repeatable
  --allowed-host H       a Host name allowed, any case; repeatable (default: loopback names when
                         bound to loopback; the bound address is always allowed)

  --help, --version`;

export interface CliOptions {
  http: boolean;
  port: number;
  host: string;
  token: string | undefined;
  allowedOrigins: string[];
  allowedHosts: string[] | undefined;
  roots: string[];
  allowUrls: boolean;
  allowPrivateUrls: boolean;
  redisUrl: string | undefined;
  baseURL: string | undefined;
  apiKey: string | undefined;
  catalogRefreshMs: number;
  /** Core's `timeouts` options given as flags. */
  timeouts: TimeoutOptions;
}

type ParsedCli = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; options: CliOptions };

/** A command line that cannot be run; the message names the argument (never its value for keys). */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/**
 * The secrets a command line may carry (`--api-key`, `--token`, the credentials of `--redis`, or
 * their variables), found without parsing it, so that a line that cannot be parsed has them
 * replaced in its error message too.
 */
export function cliSecrets(argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const found = [envSetting(env, 'INFERGATE_API_KEY'), envSetting(env, 'INFERGATE_MCP_TOKEN')];
  const redisUrls = [envSetting(env, 'INFERGATE_REDIS_URL')];
  argv.forEach((arg, index) => {
    for (const flag of ['--api-key', '--token', '--redis']) {
      const into = flag === '--redis' ? redisUrls : found;
      if (arg === flag && !argv[index + 1]?.startsWith('-')) into.push(argv[index + 1]);
      else if (arg.startsWith(`${flag}=`)) into.push(arg.slice(flag.length + 1));
    }
  });
  for (const url of redisUrls) if (url !== undefined) found.push(...redisUrlSecrets(url));
  return found.map((secret) => secret?.trim() ?? '').filter((secret) => secret !== '');
}

/**
 * A variable the command reads, by the rule core reads INFERGATE_BASE_URL and INFERGATE_API_KEY
 * with: trimmed, and a blank one (empty, or only spaces or a line break, as a compose file or a
 * `.env` template leaves it) unset. INFERGATE_MCP_TOKEN's exception is `envToken`.
 */
export function envSetting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

/**
 * INFERGATE_MCP_TOKEN, the one variable a blank value of does not unset when it is used (`--http`):
 * it was set to require a token, and taking it as unset would start the server without one. A
 * token that is not blank is taken as written, so that spaces at its ends are refused, not cut.
 */
function envToken(env: NodeJS.ProcessEnv, http: boolean): string | undefined {
  const token = env.INFERGATE_MCP_TOKEN;
  if (token === undefined) return undefined;
  if (envSetting(env, 'INFERGATE_MCP_TOKEN') !== undefined) return token;
  if (!http) return undefined;
  throw new CliUsageError(
    `INFERGATE_MCP_TOKEN is set but blank: with --http it is refused, not taken as unset as other blank variables are, since the server would then start without the token it was meant to require; set it to a random secret of at least ${MIN_TOKEN_LENGTH} characters, or unset it`,
  );
}

function integer(flag: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw new CliUsageError(`${flag} must be a whole number from 0 to ${max}, got "${value}"`);
  }
  return Number(value);
}

/** A number as written on a command line: decimal, with an optional fraction and exponent. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * A `timeouts` flag's value: its text as a number, then read by core's rule for the option
 * (`readNumber` with its descriptor: a finite number of ms > 0, clamped to the longest timer), so a
 * flag takes what the client option takes. A refusal has core's words, the value quoted as typed.
 */
function timeoutFlag(flag: string, key: keyof TimeoutOptions, text: string | undefined) {
  if (text === undefined) return undefined;
  // (Text that is no number is given to core's rule as what it is: not a number.)
  const value = DECIMAL.test(text) ? Number(text) : Number.NaN;
  try {
    return readNumber(value, TIMEOUT_OPTIONS.fields[key], flag, 'command-line option');
  } catch (refused) {
    const words = (refused as Error).message;
    const given = `, got ${describeGiven(value)}`;
    throw new CliUsageError(
      words.endsWith(given) ? `${words.slice(0, -given.length)}, got "${text}"` : words,
    );
  }
}

/** The command line and environment as options (environment variables are the defaults). */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedCli {
  let values: ReturnType<typeof parse>['values'];
  try {
    ({ values } = parse(argv));
  } catch (error) {
    // parseArgs quotes unknown options, never the values of known ones.
    throw new CliUsageError(unknownFlagWords(error) ?? (error as Error).message);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const http = values.http ?? false;
  for (const flag of ['port', 'host', 'token', 'allowed-origin', 'allowed-host'] as const) {
    if (!http && values[flag] !== undefined) throw new CliUsageError(`--${flag} needs --http`);
  }
  // Over HTTP the tools take no file paths: a root would be ignored without a word.
  if (http && values.root !== undefined) {
    throw new CliUsageError(
      '--root cannot go with --http: files are never offered over HTTP (the tools take image_url / audio_url or base64 there)',
    );
  }
  for (const origin of values['allowed-origin'] ?? []) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new CliUsageError(
        `--allowed-origin must be an origin such as http://localhost:5173 (scheme://host[:port]), got "${origin}"`,
      );
    }
  }
  const token = values.token ?? envToken(env, http);
  const tokenFault = token === undefined ? undefined : bearerTokenFault(token);
  if (tokenFault !== undefined) {
    const source = values.token === undefined ? 'INFERGATE_MCP_TOKEN' : '--token';
    throw new CliUsageError(`${source} ${tokenFault}`);
  }
  const redisUrl = values.redis ?? envSetting(env, 'INFERGATE_REDIS_URL');
  if (redisUrl !== undefined) {
    checkRedisUrlForm(redisUrl, values.redis === undefined ? 'INFERGATE_REDIS_URL' : '--redis');
  }
  return {
    kind: 'run',
    options: {
      http,
      port: integer('--port', values.port, 8788, 65535),
      host: values.host ?? '127.0.0.1',
      token,
      allowedOrigins: values['allowed-origin'] ?? [],
      allowedHosts: values['allowed-host'],
      roots: values.root?.length ? values.root : [process.cwd()],
      allowUrls: !values['no-urls'],
      allowPrivateUrls: values['allow-private-urls'] ?? false,
      redisUrl,
      baseURL: values['base-url'],
      apiKey: values['api-key'],
      catalogRefreshMs: integer('--catalog-refresh', values['catalog-refresh'], 60, 86_400) * 1000,
      timeouts: timeoutsOf(values),
    },
  };
}

/**
 * A `--redis` value that is no Redis URL is refused here, before anything starts, by core's rule
 * (`redisUrlFault`, the one @infergate/redis's `createRedisBudget` applies: this command cannot
 * wait for that optional package), in its words: nothing of a refused value is quoted, as it may
 * be a password put in the wrong place, and only a URL's password can be masked later.
 */
function checkRedisUrlForm(url: string, source: string): void {
  const fault = redisUrlFault(url);
  if (fault !== undefined) throw new CliUsageError(`${source} ${fault}`);
}

function timeoutsOf(values: Record<string, unknown>): TimeoutOptions {
  const timeouts: TimeoutOptions = {};
  for (const { key, flag } of TIMEOUT_FLAGS) {
    const ms = timeoutFlag(`--${flag}`, key, values[flag] as string | undefined);
    if (ms !== undefined) timeouts[key] = ms;
  }
  return timeouts;
}

/**
 * An unknown flag's refusal naming the closest known one, by core's check of unknown options
 * ("unknown option `--bse-url` in infergate-mcp — did you mean `--base-url`?"); else undefined.
 */
function unknownFlagWords(error: unknown): string | undefined {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || typeof message !== 'string') return undefined;
  const flag = /^Unknown option '([^']+)'/.exec(message)?.[1];
  if (flag === undefined) return undefined;
  const known = Object.keys(FLAGS).map((name) => `--${name}`);
  try {
    refuseUnknownOptions({ [flag]: true }, known, 'infergate-mcp', 'client option');
  } catch (refusal) {
    return (refusal as Error).message;
  }
  return undefined;
}

const FLAGS = {
  http: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string' },
  'allowed-origin': { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
  root: { type: 'string', multiple: true },
  'no-urls': { type: 'boolean' },
  'allow-private-urls': { type: 'boolean' },
  redis: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'catalog-refresh': { type: 'string' },
  ...Object.fromEntries(TIMEOUT_FLAGS.map(({ flag }) => [flag, { type: 'string' } as const])),
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/**
 * The command line read, a flag that takes one value refused when given twice (parseArgs keeps the
 * last one without a word: `--port 0 --port 1` would listen on 1 and `--host` twice could expose
 * the server). Named, never quoted with its values (`--api-key` is a secret). A repeated switch
 * (`--http --http`) says the same thing twice and passes.
 */
function parse(argv: readonly string[]) {
  const parsed = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: FLAGS,
    tokens: true,
  });
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind === 'positional') throw positionalRefusal(argv, token.index);
    if (token.kind !== 'option' || !ONE_VALUE_FLAGS.has(token.name)) continue;
    if (seen.has(token.name)) {
      throw new CliUsageError(`--${token.name} is given twice: give it once`);
    }
    seen.add(token.name);
  }
  return parsed;
}

/**
 * The refusal of a positional argument, by its position and length, never its text: after a space
 * typed behind `--token=` or `--api-key=` it is the secret itself. Such an empty `--flag=` before
 * it is named, with the likely slip.
 */
function positionalRefusal(argv: readonly string[], index: number): CliUsageError {
  const before = argv[index - 1];
  const emptyFlag =
    before !== undefined && /^--[^=]+=$/.test(before) && before.slice(2, -1) in FLAGS
      ? ` \`${before}\` has no value: did you put a space after \`=\`?`
      : '';
  return new CliUsageError(
    `Unexpected argument ${index + 1} (${argv[index]?.length ?? 0} characters, not shown: it may be a secret): this command takes no positional arguments.${emptyFlag}`,
  );
}

/** The flags that take one value (the repeatable ones take a list; the rest are switches). */
const ONE_VALUE_FLAGS: ReadonlySet<string> = new Set(
  Object.entries(FLAGS).flatMap(([name, flag]) =>
    flag.type === 'string' && !('multiple' in flag) ? [name] : [],
  ),
);
