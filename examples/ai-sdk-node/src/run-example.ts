// Where this example sends its requests. With INFERGATE_BASE_URL and INFERGATE_API_KEY set: your
// gateway. Without them: the infergate emulator, started in this process on a free loopback port,
// which answers with deterministic stand-ins, so the example runs with no gateway at all. Either
// way the two variables end up set, and every infergate package reads them when given no options.

/** Runs `main` on the gateway; a failure is printed as one line (in full with DEBUG=1), exit code 1. */
export async function runExample(main: () => Promise<void>): Promise<void> {
  // Connecting is inside the try: a configuration error is a failure like any other, one line.
  let stop: (() => Promise<void>) | undefined;
  try {
    stop = await connectGateway();
    await main();
  } catch (error) {
    process.exitCode = 1;
    console.error(`\nThe example failed: ${describeError(error)}`);
    if (process.env.DEBUG) console.error(error);
  } finally {
    await stop?.();
  }
}

/** Says which gateway is used, starting the emulator when none is set; resolves to its stop. */
async function connectGateway(): Promise<() => Promise<void>> {
  const configured = process.env.INFERGATE_BASE_URL?.trim();
  if (configured) {
    if (!process.env.INFERGATE_API_KEY) {
      throw new Error('INFERGATE_BASE_URL is set but INFERGATE_API_KEY is not: set both.');
    }
    console.log(`Gateway: ${printableURL(configured)}\n`);
    return async () => {};
  }
  // Loaded only here: with your gateway configured, the emulator is never needed.
  const { startEmulator } = await import('@infergate/emulator');
  const emulator = await startEmulator({ port: 0 });
  process.env.INFERGATE_BASE_URL = emulator.url;
  process.env.INFERGATE_API_KEY = emulator.apiKey;
  console.log(`Gateway: the embedded emulator at ${emulator.url}`);
  console.log(
    '(the emulator answers with deterministic stand-ins; set INFERGATE_BASE_URL and INFERGATE_API_KEY to your gateway for real answers)\n',
  );
  return () => emulator.close();
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

/** One line for an error: its name, the gateway's code when there is one, and its message. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${error.message}`;
}
