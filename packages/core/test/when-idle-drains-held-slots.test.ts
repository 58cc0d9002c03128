// A key slot given back later than its call ends (a fetch deaf to its abort: until that fetch
// settles, a bound at most; a cut request: a grace) is released by a timer that does not hold
// the process open. `await client.budget.whenIdle()` as a script's last work must still drain:
// the process stays up until that release and exits 0, not 13 ("unsettled top-level await").
// A script that does not wait is not held open by a release due. Each case runs in a fresh Node
// process on core's source bundled here (its entry plus the slot source, whose hold bound the
// child lowers), and the test waits for that process's exit event.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCoreSource } from './core-source-build';

/** A hang guard only (a child that does not exit fails here): cold Node starts on a loaded box. */
const CHILD_TEST_TIMEOUT_MS = 60_000;
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'infergate-held-slots-'));
  await buildCoreSource(outDir, {
    index: 'src/index.ts',
    'slot-source': 'src/http/slot-source.ts',
  });
  await writeFile(join(outDir, 'child.mjs'), CHILD);
}, CHILD_TEST_TIMEOUT_MS);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

/**
 * The child: a chat whose fetch never settles (`deaf`) or a stream it cancels mid-body (`cut`),
 * then, with `WAITS`, `await client.budget.whenIdle()` as its last work. It prints, as it exits,
 * the call's outcome and the key's slots still held.
 */
const CHILD = `
import { createGatewayClient } from './index.js';
import { ABANDONED_FETCH_HOLD } from './slot-source.js';
const { emulate } = await import(process.env.TESTING_URL);
ABANDONED_FETCH_HOLD.ms = Number(process.env.HOLD_MS);
const gateway = await emulate({ baseURL: 'https://held-slots.test/v1' });
// (A stream silent after its first chunks: cancelling it cuts its body.)
gateway.emulator.injectFault({ fault: 'stall_stream', afterChunks: 2, ms: 600_000 });
let wasSent;
const sent = new Promise((resolve) => { wasSent = resolve; });
const fetch = (input, init) => {
  if (process.env.CASE !== 'deaf' || !String(input).endsWith('/chat/completions')) {
    return gateway.connection.fetch(input, init);
  }
  wasSent();
  return new Promise(() => {});
};
const client = createGatewayClient({ ...gateway.connection, fetch });
const request = { model: 'community/general', messages: [{ role: 'user', content: 'hi' }] };
let outcome;
if (process.env.CASE === 'deaf') {
  const controller = new AbortController();
  const call = client.chat(request, { signal: controller.signal }).catch((error) => error.code);
  await sent;
  controller.abort();
  outcome = await call;
} else {
  const stream = await client.chatStream(request);
  for await (const event of stream) break;
  outcome = 'cut';
}
process.on('exit', () => {
  process.stdout.write(JSON.stringify({ outcome, active: client.budget.active }));
});
if (process.env.WAITS) await client.budget.whenIdle();
`;

async function runChild(env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(outDir, 'child.mjs')],
      {
        cwd: outDir,
        env: {
          ...process.env,
          TESTING_URL: import.meta.resolve('@infergate/emulator/testing'),
          ...env,
        },
      },
      (error, stdout) => {
        const code = (error as { code?: unknown } | null)?.code;
        resolve({ code: typeof code === 'number' ? code : error ? -1 : 0, out: stdout.trim() });
      },
    );
  });
}

/** A child's case: its environment, and what it prints as it exits (besides its exit code 0). */
interface ChildCase {
  name: string;
  env: Record<string, string>;
  printed: { outcome: string; active: number };
}

it.each<ChildCase>([
  {
    name: 'a fetch that never settles: whenIdle() keeps the process up until the bound, then it drains and exits 0',
    env: { CASE: 'deaf', WAITS: '1', HOLD_MS: '50' },
    printed: { outcome: 'aborted', active: 0 },
  },
  {
    name: "a stream cut mid-body: whenIdle() keeps the process up until the key's slot is back after the grace",
    env: { CASE: 'cut', WAITS: '1', HOLD_MS: '30000' },
    printed: { outcome: 'cut', active: 0 },
  },
  {
    name: 'without whenIdle(), a release due does not hold the process open: it exits with the slot still held',
    env: { CASE: 'deaf', HOLD_MS: '30000' },
    printed: { outcome: 'aborted', active: 1 },
  },
])(
  '$name',
  async ({ env, printed }) => {
    const { code, out } = await runChild(env);
    expect({ code, ...JSON.parse(out) }).toEqual({ code: 0, ...printed });
  },
  CHILD_TEST_TIMEOUT_MS,
);
