// docs/gateway-protocol.md §2.5 (one client per server: every session shares the key's 4 slots),
// §3.2 (the tools offered follow the catalog), §4.7 (`ask_model`'s stall timeouts).
import {
  createGatewayClient,
  type GatewayClient,
  type GatewayClientOptions,
  GatewayError,
  type GatewayEvent,
  isGatewayError,
  STEERING_OPTIONS,
  type SteeringOptions,
  TIMEOUT_OPTIONS,
} from '@infergate/core';
import {
  apiKeyOrEnv,
  keyKeptOut,
  type ListsEveryKey,
  optionKeys,
  readHedge,
  readSteering,
  refuseUnknownOptions,
  refuseUnsentHedge,
} from '@infergate/core/internal';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AllowedRoots } from './allowed-roots';
import { registerCatalogResources } from './catalog-resources';
import { CatalogWatch, type GatewayToolName, type ToolAvailability } from './catalog-watch';
import { registerEmbeddingTools } from './embedding-tools';
import { type AskModelOptions, registerModelTools } from './model-tools';
import { progressFromGatewayEvents } from './progress';
import { redactingTransport } from './redacting-transport';
import { checkServerOptions } from './server-options';
import { registerServiceTools } from './service-tools';
import type { ToolContext } from './tool-context';
import { listOnlyOffered } from './tool-listing';
import { type HostResolver, type PrivateUrlPolicy, UrlGuard } from './url-guard';

declare const __PACKAGE_VERSION__: string | undefined;
const VERSION = typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : '0.0.0-dev';
/** How long `connect` waits for the first catalog read. */
const FIRST_READ_WAIT_MS = 5_000;

/**
 * Core's steering options that are no server option: `fallbackModels` is `ask_model`'s argument
 * (`fallback_models`, per call), `structuredOutput` its `response_format`'s business.
 */
type NotServerSteering = Exclude<keyof SteeringOptions, keyof AskModelOptions>;
const NOT_SERVER_STEERING: readonly string[] = [
  'fallbackModels',
  'structuredOutput',
] satisfies NotServerSteering[];

/** `ask_model`'s steering set by the server: every other option of core's `steering` group. */
export type ServerSteering = AskModelOptions;

/** Its keys, from core's descriptor: a steering option new in core is a server option, no edit here. */
const SERVER_STEERING_KEYS = optionKeys(STEERING_OPTIONS).filter(
  (key) => !NOT_SERVER_STEERING.includes(key),
);

/**
 * The server's options: core's steering for `ask_model` (`firstChunkTimeoutMs`, `chunkTimeoutMs`,
 * `hedge`: the server's choice, passed per call, so they also apply to a `client` given here; a
 * hedge is a server's choice only, no tool argument, since its prompt tokens are paid even when
 * it loses), and the server's own. Any other key is refused (`configuration_error`).
 */
export interface GatewayMcpServerOptions extends ServerSteering {
  /**
   * The gateway client every session uses (one per server, so all sessions share the key's
   * budget). Default: one made from `clientOptions` (`INFERGATE_BASE_URL` / `INFERGATE_API_KEY`);
   * not both (refused).
   * A client given here reports no per-step progress (queued, sent, retrying): that comes from the
   * client this server makes itself.
   */
  client?: GatewayClient;
  /** Options of the client the server makes: `baseURL`, `apiKey`, `budget`, `timeoutMs`, … */
  clientOptions?: GatewayClientOptions;
  /**
   * Directories that `image_path` / `audio_path` may read from (symbolic links resolved; no way
   * out). Default: the working directory. Relative paths start at the first root.
   */
  roots?: readonly string[];
  /** Whether `image_url` / `audio_url` are downloaded by the server. Default `true`. */
  allowUrls?: boolean;
  /**
   * Which non-public addresses (loopback, private, link-local, unspecified, multicast, reserved)
   * `image_url` / `audio_url` downloads may reach: `false` none, `true` all, or a function that
   * allows some (`({ address, port }) => …`). Default `false`: an internal address is refused
   * with `url_refused`, before any connection, whether the URL names it or a name resolves to it.
   */
  allowPrivateUrls?: PrivateUrlPolicy;
  /**
   * How download hosts are resolved: every address of a name, each judged by `allowPrivateUrls`,
   * and the server's own requests connect only to those. Default: the system resolver
   * (`dns.lookup`, `/etc/hosts` included).
   */
  resolveHost?: HostResolver;
  /**
   * A fetch function of your own for `image_url` / `audio_url` (never used to reach the gateway:
   * that is the client's `fetch`). It is called per hop with `redirect: 'manual'` (the server
   * follows at most 5 redirects itself, each judged), after the host and what it resolves to
   * passed `allowPrivateUrls`; it owns its connection, so it should connect to what was judged
   * (or run behind an egress policy). Default: the server's own node:http(s) requests.
   */
  mediaFetch?: typeof fetch;
  /** @deprecated The old name of `mediaFetch`, still read in this release; `mediaFetch` wins. */
  fetch?: typeof fetch;
  /**
   * How often the gateway's services are read again to update the tool list (ms). Default 60000;
   * `0` reads them only at start, on `refreshCatalog()` and after a service tool's
   * `provider_unavailable` (core's catalog watch: at most once every 5 s).
   */
  catalogRefreshMs?: number;
  /**
   * While a tool call waits for one of the key's slots, or out a `Retry-After` before core retries,
   * how often it sends progress again (ms),
   * so that a client resetting its timeout on progress keeps waiting. Default 2000; `0` tells
   * the wait once, when it begins.
   */
  queueProgressMs?: number;
  /** The name this server gives in MCP's `initialize`. Default `infergate`. */
  name?: string;
}

/** The server's own keys (core's steering ones are `SERVER_STEERING_KEYS`). */
const OWN_OPTION_KEYS = [
  'client',
  'clientOptions',
  'roots',
  'allowUrls',
  'allowPrivateUrls',
  'resolveHost',
  'mediaFetch',
  'fetch',
  'catalogRefreshMs',
  'queueProgressMs',
  'name',
] as const satisfies readonly (keyof GatewayMcpServerOptions)[];
true satisfies ListsEveryKey<
  Omit<GatewayMcpServerOptions, keyof ServerSteering>,
  typeof OWN_OPTION_KEYS
>;

/** Every key `createGatewayMcpServer` takes. */
const SERVER_OPTION_KEYS: readonly string[] = [...OWN_OPTION_KEYS, ...SERVER_STEERING_KEYS];

/** Keys that belong elsewhere (core reads own keys only: an unknown `toString` is no hint). */
const HINTS: Readonly<Record<string, string>> = {
  fallbackModels: '`fallback_models` is an argument of each ask_model call',
};

export interface SessionOptions {
  /**
   * Offer `image_path` / `audio_path` (files under the allowed roots). Default `true`; the HTTP
   * transport passes `false`: a remote client has no business reading this machine's files.
   */
  files?: boolean;
}

/**
 * Refuses a session option none of ours is (before the session is made): a misspelt `files: false`
 * would offer `*_path` to a client that must not read this machine's files.
 */
function refuseUnknownSessionOptions(given: SessionOptions, where: string): void {
  refuseUnknownOptions(given, ['files'] satisfies (keyof SessionOptions)[], where, 'client option');
}

export interface GatewayMcpServer {
  /** The one gateway client of this server. */
  readonly client: GatewayClient;
  /** The tools offered now (a tool whose service has no available nodes is not). */
  readonly availability: Readonly<ToolAvailability>;
  /** A new MCP server for one session, with every tool and resource registered. */
  createServer(options?: SessionOptions): McpServer;
  /** `createServer()` connected to `transport`, after the first catalog read (5 s at most). */
  connect(transport: Transport, options?: SessionOptions): Promise<McpServer>;
  /**
   * Reads the gateway's services now; sessions whose tool list changed get
   * `notifications/tools/list_changed`. Resolves to whether anything changed.
   */
  refreshCatalog(): Promise<boolean>;
  /** Stops the catalog reads and closes every session. */
  close(): Promise<void>;
}

interface Session {
  server: McpServer;
}

/**
 * Whether a candidate is the key of the client a server made itself (from `clientOptions`, else
 * `INFERGATE_API_KEY` as its calls read it now), for `startHttpServer`'s bearer token, which must
 * be a secret of its own. Kept here, off the public object, so the key itself is never handed out.
 * A `client` given keeps its key to itself: no entry.
 */
const madeClientKeys = new WeakMap<GatewayMcpServer, () => string | undefined>();

/** True when `candidate` is the key of the client `gateway` made (never says what the key is). */
export function isOwnClientKey(gateway: GatewayMcpServer, candidate: string): boolean {
  // (Trimmed, as core sends it: a key read from a file keeps its newline.)
  const key = madeClientKeys.get(gateway)?.()?.trim();
  return key !== undefined && key === candidate.trim();
}

/**
 * `ask_model`'s steering (stall timeouts, hedge), read by core's one reader when the server is made
 * (a wrong one would fail every call): `configuration_error` naming the option.
 */
function askModelOptions(options: GatewayMcpServerOptions): AskModelOptions {
  const steered = readSteering(options, 'client option');
  // A hedge the server's own stall timeout or its client's deadline leaves unsent would fail every
  // ask_model (telling the model to fix an argument it cannot give): refused now. A `client` given
  // keeps its deadline to itself: checked at each call.
  const given = options.clientOptions?.timeoutMs;
  const timeoutMs =
    options.client !== undefined
      ? Number.POSITIVE_INFINITY
      : typeof given === 'number' && given > 0
        ? given
        : Number(TIMEOUT_OPTIONS.fields.timeoutMs.default);
  // The stall timeout and hedge ask_model's calls run with: the server's, else its client's (core's
  // rule at a call: the call's values over its client's).
  const ownStall = steered.firstChunkTimeoutMs !== undefined;
  const firstChunkTimeoutMs = ownStall
    ? steered.firstChunkTimeoutMs
    : options.clientOptions?.firstChunkTimeoutMs;
  const ownHedge = steered.hedge !== undefined;
  const hedge = ownHedge ? steered.hedge : clientHedge(options);
  // Both the client's: the client refuses them itself, in its own words. The client's hedge
  // against the server's stall timeout: each value says whose it is.
  if (!ownStall && !ownHedge) return serverSteering(steered);
  const whose = ownHedge
    ? undefined
    : { hedge: 'clientOptions', firstChunkTimeoutMs: "the server's", timeoutMs: 'clientOptions' };
  // (The client's hedge is named by its path from the server's options, as core names its others.)
  const field = ownHedge ? undefined : 'clientOptions.hedge.afterMs';
  refuseUnsentHedge(hedge, firstChunkTimeoutMs, timeoutMs, 'server option', whose, field);
  return serverSteering(steered);
}

/** The steering options the server passes on each ask_model call. */
function serverSteering(steered: ReturnType<typeof readSteering>): AskModelOptions {
  const read: Record<string, unknown> = { ...steered };
  const steering: Record<string, unknown> = {};
  for (const key of SERVER_STEERING_KEYS) if (read[key] !== undefined) steering[key] = read[key];
  return steering as AskModelOptions;
}

/**
 * The hedge of the client the server makes (`clientOptions.hedge`), read by core's rule; none when
 * a `client` is given (it keeps its options to itself: core checks them at each call), or when it
 * is malformed: the client refuses that as it is made, naming `clientOptions.hedge`.
 */
function clientHedge(options: GatewayMcpServerOptions): ReturnType<typeof readHedge> {
  const given = options.client === undefined ? options.clientOptions?.hedge : undefined;
  try {
    return readHedge(given, 'client option');
  } catch {
    return undefined;
  }
}

/**
 * The gateway's services and models as a Model Context Protocol server. One object serves any
 * number of sessions (stdio, Streamable HTTP, in-memory): each gets its own `McpServer`, all share
 * one gateway client, so their calls share the key's budget of 4 requests at once.
 */
export function createGatewayMcpServer(options: GatewayMcpServerOptions = {}): GatewayMcpServer {
  // (The key, pasted by mistake as an option's name at any depth, is never quoted.)
  // Every option is read before the client is made or the catalog read.
  const askOptions = keyKeptOut(
    () => {
      const apiKey = options.clientOptions?.apiKey;
      return apiKeyOrEnv(typeof apiKey === 'string' ? apiKey : undefined);
    },
    () => {
      refuseUnknownOptions(
        options,
        SERVER_OPTION_KEYS,
        'createGatewayMcpServer',
        'client option',
        HINTS,
      );
      checkServerOptions(options);
      return askModelOptions(options);
    },
  );
  const client = options.client ?? clientWithProgress(options);
  const sessions = new Set<Session>();
  // Each session's tools/list reads the availability when asked (tool-listing.ts): told once.
  const apply = () => {
    for (const session of sessions) {
      if (session.server.isConnected()) session.server.sendToolListChanged();
    }
  };
  const watch = new CatalogWatch(client, options.catalogRefreshMs ?? 60_000, apply);
  const firstRead = watch.refresh();
  const createServer = sessionFactory(options, askOptions, client, watch, sessions);
  const gateway: GatewayMcpServer = {
    client,
    get availability() {
      return watch.availability;
    },
    createServer,
    async connect(transport, sessionOptions) {
      refuseUnknownSessionOptions(sessionOptions ?? {}, 'connect');
      // The first tool list should reflect the catalog, but a slow or unreachable gateway must not
      // hold up a client's handshake (desktop clients give up on it): wait a few seconds at most.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        firstRead,
        new Promise((resolve) => {
          timer = setTimeout(resolve, FIRST_READ_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      const server = createServer(sessionOptions);
      await server.connect(transport);
      return server;
    },
    refreshCatalog: () => watch.refresh(),
    async close() {
      watch.close();
      await Promise.all([...sessions].map((session) => session.server.close()));
      sessions.clear();
    },
  };
  if (options.client === undefined) {
    const apiKey = options.clientOptions?.apiKey;
    madeClientKeys.set(gateway, () => apiKeyOrEnv(typeof apiKey === 'string' ? apiKey : undefined));
  }
  return gateway;
}

/**
 * The server's own client: its events feed the tools' progress notifications. A refusal of one of
 * `clientOptions` names it by its path from the server's options (`clientOptions.maxRetries`,
 * `clientOptions.hedge.after`), as the server's other refusals name theirs.
 */
function clientWithProgress(options: GatewayMcpServerOptions): GatewayClient {
  try {
    return createGatewayClient({
      ...options.clientOptions,
      onEvent: (event: GatewayEvent) => {
        progressFromGatewayEvents(event);
        options.clientOptions?.onEvent?.(event);
      },
    });
  } catch (error) {
    throw underPath(error, 'clientOptions.');
  }
}

/**
 * Core's refusal of an option given inside another object, its field (and its message, where it
 * starts with the field: `maxRetries (client option) must be …`) prefixed with that object's path.
 * Anything else (no field, a gateway's answer) is returned unchanged.
 */
function underPath(error: unknown, prefix: string): unknown {
  if (!isGatewayError(error) || error.status !== undefined || error.field === undefined) {
    return error;
  }
  const { field } = error;
  const message = error.message.startsWith(`${field} `)
    ? `${prefix}${error.message}`
    : error.message;
  return new GatewayError({
    code: error.code,
    message,
    field: `${prefix}${field}`,
    cause: error.cause,
  });
}

/** Makes each session's `McpServer`: its tools (offered as the catalog says) and resources. */
function sessionFactory(
  options: GatewayMcpServerOptions,
  askOptions: AskModelOptions,
  client: GatewayClient,
  watch: CatalogWatch,
  sessions: Set<Session>,
): (sessionOptions?: SessionOptions) => McpServer {
  const roots = new AllowedRoots(options.roots?.length ? options.roots : [process.cwd()]);
  const urlGuard = new UrlGuard({
    allowPrivateUrls: options.allowPrivateUrls,
    resolveHost: options.resolveHost,
  });
  return (sessionOptions = {}) => {
    refuseUnknownSessionOptions(sessionOptions, 'createServer');
    const files = sessionOptions.files ?? true;
    const server = new McpServer(
      { name: options.name ?? 'infergate', version: VERSION },
      {
        // `logging/setLevel` is answered (the SDK keeps each session's level); see README.
        capabilities: { logging: {} },
        instructions:
          "Tools of an inference gateway: translate, ocr, transcribe, embed, similarity, list_models, ask_model. A tool left out of the list has no available nodes now. Errors say what to do. The gateway key's requests are limited to 4 at once; calls beyond wait their turn.",
      },
    );
    const context: ToolContext = {
      client,
      queueProgressMs: options.queueProgressMs,
      media: {
        roots: files ? roots : undefined,
        allowUrls: options.allowUrls ?? true,
        guard: urlGuard,
        mediaFetch: options.mediaFetch ?? options.fetch,
      },
    };
    listOnlyOffered(
      server,
      (name) => watch.availability[name as GatewayToolName] !== false,
      () => void watch.fromCache(),
    );
    // (A service tool's `provider_unavailable` reads the services again: core's catalog watch
    // hears it from the client, at most once every 5 s; a model tool's reads nothing.)
    registerServiceTools(server, context, { files, urls: context.media.allowUrls });
    registerEmbeddingTools(server, context);
    registerModelTools(server, context, askOptions);
    registerCatalogResources(server, client);
    // Every message the session sends leaves redacted of the key, whoever connects it (`connect`,
    // or a caller's `createServer().connect(transport)`).
    const connect = server.server.connect.bind(server.server);
    server.server.connect = (transport) => connect(redactingTransport(transport));
    const session: Session = { server };
    sessions.add(session);
    const previous = server.server.onclose;
    server.server.onclose = () => {
      sessions.delete(session);
      previous?.();
    };
    return server;
  };
}
