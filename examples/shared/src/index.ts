import { type Emulator, type ScenarioInput, startEmulator } from '@infergate/emulator';

/** Where the examples send their requests. */
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
 * an emulator started in this process on a free loopback port. In the second case both variables
 * are set, so every package's default configuration (`gateway`, `new GatewayChatModel(...)`) finds it.
 */
export async function connectGateway(
  options: { scenario?: ScenarioInput; quiet?: boolean } = {},
): Promise<GatewayConnection> {
  const configured = process.env.INFERGATE_BASE_URL?.trim();
  if (configured) {
    const apiKey = process.env.INFERGATE_API_KEY ?? '';
    if (!apiKey) {
      throw new Error('INFERGATE_BASE_URL is set but INFERGATE_API_KEY is not: set both.');
    }
    if (!options.quiet) console.log(`Gateway: ${configured}\n`);
    return { baseURL: configured, apiKey, close: async () => {} };
  }
  const server = await startEmulator({ port: 0, scenario: options.scenario });
  process.env.INFERGATE_BASE_URL = server.url;
  process.env.INFERGATE_API_KEY = server.apiKey;
  if (!options.quiet) {
    console.log(`Gateway: the embedded emulator at ${server.url}`);
    // Its answers (`Echo: …`, placeholder tool arguments) are not a model's: say so up front.
    console.log(
      '(the emulator answers with deterministic stand-ins; set INFERGATE_BASE_URL and INFERGATE_API_KEY to your gateway for real answers)\n',
    );
  }
  return {
    baseURL: server.url,
    apiKey: server.apiKey,
    emulator: server.emulator,
    close: () => server.close(),
  };
}

/** Runs `main` with a connection, closes it afterwards, and sets the exit code on failure. */
export async function runExample(
  main: (connection: GatewayConnection) => Promise<void>,
  options: { scenario?: ScenarioInput } = {},
): Promise<void> {
  const connection = await connectGateway(options);
  try {
    await main(connection);
  } catch (error) {
    process.exitCode = 1;
    console.error(`\nThe example failed: ${describeError(error)}`);
    if (process.env.DEBUG) console.error(error);
  } finally {
    await connection.close();
  }
}

export { IMAGE_TEXT, readAsset, SPOKEN_TEXT } from './assets.ts';

/** One line for an error: its name, the gateway code when there is one, and its message. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${error.message}`;
}
