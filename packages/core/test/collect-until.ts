/**
 * Script text for the child processes of `runWithGc`: `collectUntil(done)` collects, then gives
 * the event loop a turn for the finalizers' callbacks, until `done()` holds — a wait on the state,
 * not on a count of sleeps. Its 20 s bound is only a safety net.
 */
export const COLLECT_UNTIL = `
const collectUntil = async (done) => {
  const end = performance.now() + 20_000;
  while (!done() && performance.now() < end) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
};
`;
