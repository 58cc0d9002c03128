// docs/gateway-protocol.md §2.5 (deadlines, back-off and leases measured on a monotonic clock, which
// a test moves ahead by hand).
/** The monotonic clock moved by hand: `steppedClock()`. */
export interface SteppedClock {
  /** Moves the clock `ms` further ahead (again and again: the steps add up). */
  ahead(ms: number): void;
  /** Gives `performance.now()` back its own clock. */
  restore(): void;
}

/**
 * `performance.now()` (the monotonic clock core measures every cooldown, idle time and latency on)
 * moved ahead by hand, the real clock still running under it: a test lets a cooldown or an idle
 * time pass without waiting for it. Free of any test framework, so no framework's mock reset puts
 * it back: call `restore()` after the test.
 */
export function steppedClock(): SteppedClock {
  const own = Object.getOwnPropertyDescriptor(performance, 'now');
  const real = performance.now.bind(performance);
  let skew = 0;
  performance.now = () => real() + skew;
  return {
    ahead(ms) {
      skew += ms;
    },
    restore() {
      if (own) Object.defineProperty(performance, 'now', own);
      else Reflect.deleteProperty(performance, 'now');
    },
  };
}
