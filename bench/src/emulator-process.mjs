/**
 * The emulator's real HTTP server in a child process, so that its CPU work (JSON of 64 × 768
 * vectors, SSE writing) does not share the client's event loop. The parent drives it over IPC.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);

if (process.argv[2] === '--child') {
  const { startEmulator } = await import('@infergate/emulator');
  const scenario = JSON.parse(process.argv[3]);
  const server = await startEmulator({ port: 0, scenario });
  process.on('message', async ({ id, op, rule }) => {
    if (op === 'reset') server.emulator.resetCounters();
    if (op === 'inject') server.emulator.injectFault(rule);
    if (op === 'close') await server.close();
    process.send({ id, counters: structuredClone(server.emulator.counters) });
    if (op === 'close') process.disconnect();
  });
  process.send({ id: 0, url: server.url, apiKey: server.apiKey });
}

/**
 * Starts the emulator server in a child process:
 * `{ url, apiKey, reset(), inject(rule), counters(), close() }`.
 */
export async function spawnEmulator(scenario) {
  const child = fork(SELF, ['--child', JSON.stringify(scenario)], { stdio: 'inherit' });
  const waiting = new Map();
  let nextId = 1;
  child.on('message', (message) => {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const ready = await new Promise((resolve, reject) => {
    waiting.set(0, resolve);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`emulator process exited with ${code}`)));
  });
  const ask = (op, rule) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, (message) => resolve(message.counters));
      child.send({ id, op, rule });
    });
  return {
    url: ready.url,
    apiKey: ready.apiKey,
    reset: () => ask('reset'),
    /** Adds a fault rule at run time (`emulator.injectFault`). */
    inject: (rule) => ask('inject', rule),
    counters: () => ask('counters'),
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await ask('close');
      await exited;
    },
  };
}
