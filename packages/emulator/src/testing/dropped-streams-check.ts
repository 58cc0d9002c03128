// docs/gateway-protocol.md §4.7 (a caller's abort signal, joined to the client's own).
// A check for an adapter's tests, run in a child Node process: streams a consumer drops leave no
// listener on the caller's long-lived signal where the runtime has no `AbortSignal.any` (edge-runtime).

/** What `droppedStreamsCheck` needs of an adapter: its package and, as JavaScript source, its calls. */
export interface DroppedStreamsCheck {
  /**
   * The adapter package's directory: the child imports its built entry (`dist/index.js`) as
   * `adapter`, and this kit's (`node_modules/@infergate/emulator/dist/testing.js`) for `emulate`.
   */
  packageDir: string;
  /** Source of a function `(adapter, connection) => model`, `connection` a gateway's `connection`. */
  model: string;
  /** Source of a function `(model, text, signal) => parts`: a stream (or its promise), async iterable. */
  stream: string;
  /** Source of a function naming a part read (the last names how a read ended); default: its `type`. */
  partName?: string;
}

/** What the child of `droppedStreamsCheck` saw. */
export interface DroppedStreamsSeen {
  /** Listeners on the caller's signal after 10 streams were read one part and dropped. */
  abandoned: number;
  /** Listeners left once the dropped streams were collected (or 20 s passed). */
  collected: number;
  /** How a stream still read ended when the caller aborted: the error's message, or `ended with <part>`. */
  abort: string;
}

/** A path as a JavaScript string literal. */
const literal = (...path: string[]) => JSON.stringify(path.join('/'));

/**
 * Runs the check in a child Node process (`--expose-gc`, `AbortSignal.any` deleted: core's joined
 * signal then forwards the caller's abort by a listener on it). 10 streams are read one part, then
 * dropped (never read on, never cancelled); the garbage collector is run, with a turn of the event
 * loop for the finalizers, until the caller's signal has no listener left (or 20 s pass). Then a
 * stream still read (stalled after 2 chunks) is aborted by the caller. What the child saw: the
 * listeners after the drops (`abandoned`) and after collection (`collected`), and how the aborted
 * read ended (`abort`: the error's message, or `ended with <the last part's name>`).
 */
export async function droppedStreamsCheck(check: DroppedStreamsCheck): Promise<DroppedStreamsSeen> {
  // Loaded only here, so the kit itself stays free of `node:` imports.
  const [{ execFile }, { promisify }] = await Promise.all([
    import('node:child_process'),
    import('node:util'),
  ]);
  const args = ['--expose-gc', '--input-type=module', '-e', droppedStreamsScript(check)];
  const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 50_000 });
  return JSON.parse(stdout.trim()) as DroppedStreamsSeen;
}

/** The child's script: it prints a `DroppedStreamsSeen` as JSON. */
function droppedStreamsScript(check: DroppedStreamsCheck): string {
  const { packageDir: dir, partName = '(part) => String(part?.type)' } = check;
  return `
delete AbortSignal.any;
const { getEventListeners } = await import('node:events');
const { emulate } = await import(${literal(dir, 'node_modules', '@infergate', 'emulator', 'dist', 'testing.js')});
const adapter = await import(${literal(dir, 'dist', 'index.js')});
const gateway = await emulate({ as: 'http' });
const model = (${check.model})(adapter, gateway.connection);
const stream = ${check.stream};
const partName = ${partName};
const caller = new AbortController();
const listeners = () => getEventListeners(caller.signal, 'abort').length;
await (async () => {
  for (let i = 0; i < 10; i++) {
    const parts = await stream(model, 'abandoned ' + i + ' ' + 'x'.repeat(50), caller.signal);
    await parts[Symbol.asyncIterator]().next();
  }
})();
const abandoned = listeners();
await gateway.untilIdle();
const end = performance.now() + 20_000;
while (listeners() > 0 && performance.now() < end) {
  globalThis.gc();
  await new Promise((resolve) => setImmediate(resolve));
}
const collected = listeners();
gateway.emulator.injectFault({ fault: 'stall_stream', afterChunks: 2, ms: 60_000 });
const held = await stream(model, 'held', caller.signal);
const reading = (async () => {
  let last = 'nothing';
  for await (const part of held) last = partName(part);
  return last;
})();
await new Promise((resolve) => setImmediate(resolve));
caller.abort(new Error('shutting down'));
const abort = await reading.then((last) => 'ended with ' + last, (error) => String(error?.message ?? error));
console.log(JSON.stringify({ abandoned, collected, abort }));
process.exit(0);
`;
}
