// Runs once when the Next.js server starts. Without INFERGATE_BASE_URL, it starts the infergate
// emulator in this process, so the app works with no gateway at all.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  if (process.env.INFERGATE_BASE_URL) return;
  const { startEmulator } = await import('@infergate/emulator');
  const server = await startEmulator({ port: 0, scenario: { streamChunkDelayMs: 30 } });
  process.env.INFERGATE_BASE_URL = server.url;
  process.env.INFERGATE_API_KEY = server.apiKey;
  console.log(`infergate: no INFERGATE_BASE_URL set, using the embedded emulator at ${server.url}`);
}
