import type { Emulator, ScenarioInput } from '@infergate/emulator';

/** Where the tour sends its requests. */
export interface GatewayConnection {
  baseURL: string;
  apiKey: string;
  /** The in-process emulator, when no gateway was configured (its counters and fault injection). */
  emulator?: Emulator;
  /** Stops the in-process emulator, if one was started. */
  close(): Promise<void>;
}

/**
 * The gateway named by `INFERGATE_BASE_URL` / `INFERGATE_API_KEY`, or, when the base URL is unset,
 * an emulator started in this process on a free loopback port (with `scenario`). In the second
 * case both variables are set, so every package's default configuration finds it.
 */
export async function connectGateway(
  options: { scenario?: ScenarioInput } = {},
): Promise<GatewayConnection> {
  const configured = process.env.INFERGATE_BASE_URL?.trim();
  if (configured) {
    const apiKey = process.env.INFERGATE_API_KEY ?? '';
    if (!apiKey) {
      throw new Error('INFERGATE_BASE_URL is set but INFERGATE_API_KEY is not: set both.');
    }
    console.log(`Gateway: ${printableURL(configured)}\n`);
    return { baseURL: configured, apiKey, close: async () => {} };
  }
  // Loaded only here: with your gateway configured, the emulator is never needed.
  const { startEmulator } = await import('@infergate/emulator');
  const server = await startEmulator({ port: 0, scenario: options.scenario });
  process.env.INFERGATE_BASE_URL = server.url;
  process.env.INFERGATE_API_KEY = server.apiKey;
  console.log(`Gateway: the embedded emulator at ${server.url}`);
  // Its answers (`Echo: …`, placeholder tool arguments) are not a model's: say so up front.
  console.log(
    '(the emulator answers with deterministic stand-ins; set INFERGATE_BASE_URL and INFERGATE_API_KEY to your gateway for real answers)\n',
  );
  return {
    baseURL: server.url,
    apiKey: server.apiKey,
    emulator: server.emulator,
    close: () => server.close(),
  };
}

/**
 * The base URL as it may be printed: scheme, host and path. Its user:password or query could hold
 * a secret, and it is printed before the client checks it (core refuses credentials in it); what
 * is not an http(s) URL is not echoed at all (`user:secret` parses as a scheme and a path).
 */
function printableURL(configured: string): string {
  const url = URL.canParse(configured) ? new URL(configured) : undefined;
  return url?.protocol === 'http:' || url?.protocol === 'https:'
    ? `${url.origin}${url.pathname}`
    : '(INFERGATE_BASE_URL is not an http(s) URL)';
}
