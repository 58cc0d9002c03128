// docs/gateway-protocol.md §2.1 (the base URL), §2.2 (the key): given to the command, named in its
// errors and hidden in everything it prints.
import type { GatewayClientOptions, GatewayEvent } from '@infergate/core';
import { settingsFound, withSettingNames } from '@infergate/core/internal';
import { checkRootDirectories } from './allowed-roots';
import { type CliOptions, CliUsageError, cliSecrets, parseCli, USAGE } from './cli-args';
import { createGatewayMcpServer } from './gateway-mcp-server';
import { isLoopbackBind } from './http-access';
import { startHttpServer } from './http-server';
import { redactMessage } from './redact-message';
import { loadRedisBudget } from './redis-budget';
import { serveStdio } from './stdio-server';

declare const __PACKAGE_VERSION__: string | undefined;

interface CliIo {
  stdin?: NodeJS.ReadableStream & import('node:stream').Readable;
  stdout?: import('node:stream').Writable;
  /** Where the server writes what it has to say (never stdout: that is the stdio transport). */
  log: (line: string) => void;
  /** Where `--help` and `--version` go (stdout: no server runs then, so a pipe or `$(…)` gets them). */
  print: (text: string) => void;
}

interface RunningCli {
  /** The HTTP endpoint, when serving HTTP. */
  url?: string;
  /** Resolves when the server stops by itself (stdio: the client closed stdin). */
  done: Promise<void>;
  close(): Promise<void>;
}

/**
 * The `infergate-mcp` command without the process around it (arguments, environment and streams
 * passed in; the gateway's URL and key are read from the process's environment by core's reader, as
 * the client's calls read them), so tests can run it in-process. Rejects with `CliUsageError` for a bad command line;
 * returns undefined after printing `--help` / `--version` (through `io.print`).
 */
export async function runCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
): Promise<RunningCli | undefined> {
  // Whatever is printed has the key, the token and URL credentials replaced.
  const secrets = cliSecrets(argv, env);
  const log = (line: string) => io.log(redactMessage(line, secrets));
  const parsed = parseCli(argv, env);
  if (parsed.kind === 'help') {
    io.print(USAGE);
    return undefined;
  }
  if (parsed.kind === 'version') {
    io.print(typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : '0.0.0-dev');
    return undefined;
  }
  const { options } = parsed;
  if (!options.http) await checkRootDirectories(options.roots, '--root');
  const budget =
    options.redisUrl === undefined ? undefined : await loadRedisBudget(options.redisUrl, log);
  const clientOptions: GatewayClientOptions = {
    ...cliClientOptions(options, budget),
    onEvent: firstCatalogReadWarning(log),
  };
  // Read as the client's calls read them (core's reader: the process's environment, a blank
  // variable unset): a malformed INFERGATE_BASE_URL throws configuration_error now, not per tool.
  const found = settingsFound(clientOptions);
  // The token is this server's own secret: as the gateway key, every client it lets in would hold
  // the key. Refused before the client is made; neither value is shown.
  // (The key trimmed, as core sends it.)
  if (options.token !== undefined && options.token.trim() === found.apiKey?.trim()) {
    throw new CliUsageError(
      'the bearer token must not be the gateway API key: make one with `openssl rand -hex 24`',
    );
  }
  // The server makes its one client here, from the options checked above.
  const gateway = createGatewayMcpServer({
    clientOptions,
    roots: options.roots,
    allowUrls: options.allowUrls,
    allowPrivateUrls: options.allowPrivateUrls,
    catalogRefreshMs: options.catalogRefreshMs,
  });
  const missing = missingSettings(found);
  if (missing !== undefined) {
    log(`infergate-mcp: warning: ${missing}: every tool will fail with configuration_error`);
  }
  const shutdown: (() => Promise<void>)[] = [
    () => gateway.close(),
    async () => {
      await budget?.close();
    },
  ];
  const close = async () => {
    for (const step of shutdown.splice(0)) await step().catch(() => {});
  };

  if (!options.http) {
    const stdio = await serveStdio(gateway, { stdin: io.stdin, stdout: io.stdout });
    log(`infergate-mcp: serving over stdio (files under ${options.roots.join(', ')})`);
    return { done: stdio.closed.then(close), close };
  }
  const http = await startHttpServer(gateway, {
    port: options.port,
    host: options.host,
    token: options.token,
    allowedOrigins: options.allowedOrigins,
    allowedHosts: options.allowedHosts,
  });
  shutdown.unshift(() => http.close());
  if (!isLoopbackBind(options.host) && options.token === undefined) {
    log(
      `infergate-mcp: warning: listening on ${options.host} without --token: anyone who can reach it uses your gateway key's budget`,
    );
  }
  log(`infergate-mcp: listening on ${http.url}${options.token ? ' (bearer token required)' : ''}`);
  return { url: http.url, done: new Promise(() => {}), close };
}

export { CliUsageError };

/**
 * What the server lacks of the gateway's URL and key, each named with its variable and flag (`no
 * gateway key (INFERGATE_API_KEY or --api-key)`); undefined when it has both.
 */
function missingSettings(found: { baseURL?: string; apiKey?: string }): string | undefined {
  const missing = [
    found.baseURL === undefined ? 'no gateway URL (INFERGATE_BASE_URL or --base-url)' : undefined,
    found.apiKey === undefined ? 'no gateway key (INFERGATE_API_KEY or --api-key)' : undefined,
  ].filter((words) => words !== undefined);
  return missing.length === 0 ? undefined : missing.join(' and ');
}

/**
 * Core's events of the server's first catalog read (at start): when it fails, a warning naming the
 * code and status, as a missing key is warned of, so a wrong key or an unreachable gateway is seen
 * at start rather than in every tool's error. No request of its own; never the key. A read its
 * deadline ended after a failed attempt (retrying a refused connection) names that attempt's
 * failure (`network_error`): the deadline is not what is wrong.
 */
function firstCatalogReadWarning(log: (line: string) => void): (event: GatewayEvent) => void {
  let told = false;
  /** Each catalog read's last failed attempt (code and status), by call. */
  const failedAttempts = new Map<number, { code: string; status?: number }>();
  return (event) => {
    if (told) return;
    if (event.operation !== 'capabilities' && event.operation !== 'models') return;
    if (event.type === 'response' && !event.ok && event.code !== undefined)
      failedAttempts.set(event.callId, { code: event.code, status: event.status });
    if (event.type !== 'done') return;
    told = true;
    const attempt = failedAttempts.get(event.callId);
    failedAttempts.clear();
    if (event.ok || event.error === undefined) return;
    const { code, status } =
      event.error.code === 'timeout' && attempt !== undefined ? attempt : event.error;
    // A missing or malformed URL or key has its own warning, before any read.
    if (code === 'configuration_error') return;
    log(
      `infergate-mcp: warning: the gateway's catalog could not be read at start (${code}${status === undefined ? '' : `, HTTP ${status}`}): tools will fail until the gateway URL and key (--base-url / --api-key, or INFERGATE_BASE_URL / INFERGATE_API_KEY) are right and the gateway answers`,
    );
  };
}

/**
 * The options of the client the command's server makes: its URL and key, the `--redis` budget,
 * and every one of core's `timeouts` options given as a flag, as they are (each is a client
 * option: the stall timeouts apply to `ask_model`, the one chat call), so a `timeouts` option new
 * in core reaches the client with no edit here. Messages about a missing or malformed URL or key
 * name the command's options.
 */
export function cliClientOptions(
  options: Pick<CliOptions, 'baseURL' | 'apiKey' | 'timeouts'>,
  budget: GatewayClientOptions['budget'],
): GatewayClientOptions {
  const clientOptions: GatewayClientOptions = withSettingNames(
    { budget, ...options.timeouts },
    { where: 'infergate-mcp', baseURL: '--base-url', apiKey: '--api-key' },
  );
  if (options.baseURL !== undefined) clientOptions.baseURL = options.baseURL;
  if (options.apiKey !== undefined) clientOptions.apiKey = options.apiKey;
  return clientOptions;
}
