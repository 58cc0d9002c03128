// docs/gateway-protocol.md §2.5 (a request's duration: deadlines, back-off and leases are measured
// on a clock that the wall clock's steps do not move).
/**
 * Milliseconds on a monotonic clock (`performance.now()`): only differences mean anything. Every
 * deadline, back-off, cache age and lease of core (and of the packages built on it) is measured
 * here, never on `Date.now()`: an NTP step or a resumed VM moves the wall clock by minutes either
 * way, which would fire deadlines at once or hold them back. Read at each call (not captured), so
 * test fake timers that replace `performance` reach it too. Only an HTTP-date `Retry-After` is
 * wall-clock time by nature (http/retry-policy.ts); event timestamps are epoch ms on purpose.
 */
export function monotonicNow(): number {
  const clock = (globalThis as { performance?: { now?: () => number } }).performance;
  // Every runtime core supports has `performance.now()`; a stripped-down one falls back.
  return typeof clock?.now === 'function' ? clock.now() : Date.now();
}
