// docs/gateway-protocol.md §2.5 (a slot is the gateway's until it sees the request end).

type Timer = ReturnType<typeof setTimeout>;

/**
 * The timers of the key slots given back later than their request ends (a cut request's grace, a
 * fetch given up on; the bounded wait of a call's `done` for them too): unref'd in Node, since a
 * release due must not hold open a process that is done, but kept running while a caller of
 * `whenIdle` waits — it drains before the process exits, so its wait must not end the process
 * instead (exit 13, an unsettled top-level await).
 */
const due = new Set<Timer>();
/** The calls of `whenIdle` waiting now. */
let draining = 0;

/** Runs `then` after `ms`, as a release due (see `due`). */
export function later(then: () => void, ms: number): Timer {
  const timer = setTimeout(() => {
    due.delete(timer);
    then();
  }, ms);
  due.add(timer);
  kept(timer);
  return timer;
}

/** A release due that is not: its timer cleared. */
function notLater(timer: Timer): void {
  clearTimeout(timer);
  due.delete(timer);
}

/** `idle`, the releases due kept running (the process kept up for them) until it settles. */
export async function drained(idle: Promise<void>): Promise<void> {
  draining++;
  due.forEach(kept);
  try {
    await idle;
  } finally {
    draining--;
    due.forEach(kept);
  }
}

/** A release due's timer holds the process open (Node) only while a `whenIdle` drains. */
function kept(timer: Timer): void {
  const node = timer as { ref?: () => unknown; unref?: () => unknown };
  if (draining > 0) node.ref?.();
  else node.unref?.();
}

/**
 * Settles when `until` does (fulfilled or not), or after `boundMs`, whichever comes first; never
 * rejects. Its timer is a release due: it holds no process open but one waiting in `whenIdle`.
 * The slot source's hold of a fetch given up on, and a call's `done` waiting for its cut
 * attempts (`CallEvents.endsAfter`), are bounded by it.
 */
export function settledWithin(until: Promise<unknown>, boundMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = later(resolve, boundMs);
    const end = () => {
      notLater(timer);
      resolve();
    };
    until.then(end, end);
  });
}
